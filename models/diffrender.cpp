#include "diffrender.h"

#include "counted.h"
#include "terminaltext.h"

namespace folio {

namespace DiffRender {

namespace {

using Class = SnapshotChange::Class;

constexpr int ContextWords = 6;   // words kept on each side of a change
constexpr int MaxPartChars = 600; // a removed or added run longer than this is cut (JSON has it whole)
constexpr int LineWidth = 4000;

// A run of kept words shortened to its context: the last words before a change, the first after.
QString context(const QString &text, bool keepHead, bool keepTail)
{
    const QStringList t = WordDiff::tokens(text);
    const int keep = ContextWords * 2; // words and spaces
    if (t.size() <= keep * (int(keepHead) + int(keepTail)) + 1)
        return text;
    QString out;
    if (keepHead)
        out += t.mid(0, keep).join(QString());
    out += QStringLiteral("…");
    if (keepTail)
        out += t.mid(t.size() - keep).join(QString());
    return out;
}

QString cut(const QString &text)
{
    return text.size() <= MaxPartChars
               ? text
               : text.left(MaxPartChars) +
                     QStringLiteral("… (%1)").arg(counted(text.size(), "char", "chars"));
}

// The words changed, each part through mark(op, text).
template<typename Mark> QString wordsLine(const WordDiff &words, Mark mark, bool shorten = true)
{
    QString out;
    for (qsizetype i = 0; i < words.parts.size(); ++i) {
        const WordDiff::Part &p = words.parts.at(i);
        if (p.op == WordDiff::Op::Same)
            out += mark(p.op, shorten ? context(p.text, i > 0, i + 1 < words.parts.size()) : p.text);
        else
            out += mark(p.op, shorten ? cut(p.text) : p.text);
    }
    return out;
}

QString markdownEscape(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar ch : text) {
        if (QStringLiteral("\\`*_[]<>|#~").contains(ch))
            out += QLatin1Char('\\');
        out += ch == QLatin1Char('\n') || ch == QLatin1Char('\r') ? QLatin1Char(' ') : ch;
    }
    return out;
}

QString listName(const QString &list)
{
    return list.isEmpty() ? QStringLiteral("server") : list;
}

} // namespace

QString plainWords(const WordDiff &words)
{
    return elide(wordsLine(words,
                           [](WordDiff::Op op, const QString &text) {
                               return op == WordDiff::Op::Same ? text
                                      : op == WordDiff::Op::Removed
                                          ? QStringLiteral("[-") + text + QStringLiteral("-]")
                                          : QStringLiteral("{+") + text + QStringLiteral("+}");
                           }),
                 LineWidth);
}

QString countsLine(const QList<SnapshotChange> &changes)
{
    QStringList parts;
    for (Class cls : SnapshotChange::allClasses()) {
        qsizetype n = 0;
        for (const SnapshotChange &c : changes)
            n += c.cls == cls ? 1 : 0;
        if (n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(SnapshotChange::className(cls));
    }
    return counted(changes.size(), "change", "changes") +
           (parts.isEmpty() ? QString() : QStringLiteral(": ") + parts.join(QStringLiteral(", ")));
}

QString markdownChange(const SnapshotChange &c)
{
    QString out = QStringLiteral("- **%1** ").arg(SnapshotChange::className(c.cls));
    if (c.item)
        out += markdownEscape(elide(*c.item, 300)) + QStringLiteral(": ");
    out += markdownEscape(elide(c.summary, LineWidth)) + QLatin1Char('\n');
    if (c.words) {
        out += QStringLiteral("  ") +
               wordsLine(*c.words,
                         [](WordDiff::Op op, const QString &text) {
                             const QString t = markdownEscape(oneLineSafe(text));
                             const QString inner = t.trimmed();
                             if (op == WordDiff::Op::Same || inner.isEmpty())
                                 return t;
                             // Emphasis hugs its words: the spaces around them stay outside.
                             const QString mark =
                                 op == WordDiff::Op::Removed ? QStringLiteral("~~") : QStringLiteral("**");
                             const qsizetype lead = t.indexOf(inner);
                             return t.left(lead) + mark + inner + mark + t.mid(lead + inner.size());
                         }) +
               QLatin1Char('\n');
    }
    return out;
}

QString markdown(const QString &before, const QString &after, const QList<SnapshotChange> &changes)
{
    QString out =
        QStringLiteral("# folio diff\n\n`%1` → `%2`\n\n**%3**\n")
            .arg(oneLineSafe(before).replace(QLatin1Char('`'), QLatin1Char('\'')),
                 oneLineSafe(after).replace(QLatin1Char('`'), QLatin1Char('\'')), countsLine(changes));
    QString list = QStringLiteral("\x01"); // no list yet
    for (const SnapshotChange &c : changes) {
        if (c.list != list) {
            list = c.list;
            out += QStringLiteral("\n## %1\n\n")
                       .arg(list.isEmpty() ? QStringLiteral("server") : markdownEscape(oneLineSafe(list)));
        }
        out += markdownChange(c);
    }
    return out;
}

QString wordsHtml(const WordDiff &words, bool shorten, const QString &removedStyle, const QString &addedStyle)
{
    return wordsLine(
        words,
        [&](WordDiff::Op op, const QString &text) {
            const QString t = oneLineSafe(text).toHtmlEscaped();
            if (op == WordDiff::Op::Same)
                return t;
            const bool removed = op == WordDiff::Op::Removed;
            const QString &style = removed ? removedStyle : addedStyle;
            const QString tag = removed ? QStringLiteral("del") : QStringLiteral("ins");
            return QStringLiteral("<%1%2>%3</%1>")
                .arg(tag, style.isEmpty() ? QString() : QStringLiteral(" style=\"%1\"").arg(style), t);
        },
        shorten);
}

QString html(const QString &before, const QString &after, const QList<SnapshotChange> &changes)
{
    const auto esc = [](const QString &text) { return oneLineSafe(text).toHtmlEscaped(); };
    QString out = QStringLiteral(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>folio diff</title>\n<style>\n"
        ":root { color-scheme: light dark; }\n"
        "body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; "
        "line-height: 1.45; }\n"
        "code, .words { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }\n"
        ".badge { display: inline-block; min-width: 5.5em; padding: 0 .4em; border-radius: .3em; "
        "font-size: .85em; font-weight: 600; text-align: center; }\n"
        ".breaking { background: #c62828; color: #fff; }\n"
        ".text { background: #f9a825; color: #000; }\n"
        ".additive, .caching, .paging { background: #9e9e9e33; }\n"
        "del { background: #ffebe9; color: #82071e; }\n"
        "ins { background: #dafbe1; color: #116329; text-decoration: none; }\n"
        "@media (prefers-color-scheme: dark) {\n"
        "  del { background: #67060c; color: #ffdcd7; }\n"
        "  ins { background: #033a16; color: #aff5b4; }\n"
        "}\n"
        "li { margin: .3em 0; }\n.words { margin: .2em 0 0 6.5em; }\n"
        "</style>\n</head>\n<body>\n<h1>folio diff</h1>\n");
    out += QStringLiteral("<p><code>%1</code> → <code>%2</code></p>\n<p><strong>%3</strong></p>\n")
               .arg(esc(before), esc(after), countsLine(changes));
    QString list = QStringLiteral("\x01");
    for (const SnapshotChange &c : changes) {
        if (c.list != list) {
            if (list != QStringLiteral("\x01"))
                out += QStringLiteral("</ul>\n");
            list = c.list;
            out += QStringLiteral("<h2>%1</h2>\n<ul>\n").arg(esc(listName(list)));
        }
        const QString name = SnapshotChange::className(c.cls);
        out += QStringLiteral("<li><span class=\"badge %1\">%1</span> ").arg(name);
        if (c.item)
            out += QStringLiteral("<code>%1</code>: ").arg(esc(elide(*c.item, 300)));
        out += esc(elide(c.summary, LineWidth));
        if (c.words)
            out += QStringLiteral("<div class=\"words\">%1</div>").arg(wordsHtml(*c.words, true));
        out += QStringLiteral("</li>\n");
    }
    if (!changes.isEmpty())
        out += QStringLiteral("</ul>\n");
    out += QStringLiteral("</body>\n</html>\n");
    return out;
}

} // namespace DiffRender

} // namespace folio
