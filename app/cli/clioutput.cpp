#include "clioutput.h"

#include "secretmask.h"
#include "terminaltext.h"

#include <QJsonDocument>

#include <cstdio>

namespace folio {

namespace {
void write(FILE *stream, const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

// Text as UTF-8, a slice at a time: a large output (a CSV of a whole walk) is not held twice.
void write(FILE *stream, const QString &text)
{
    constexpr qsizetype slice = 1 << 20;
    for (qsizetype from = 0; from < text.size();) {
        qsizetype n = qMin(slice, text.size() - from);
        if (from + n < text.size() && text.at(from + n - 1).isHighSurrogate())
            --n; // a pair stays whole
        const QByteArray bytes = QStringView(text).sliced(from, n).toUtf8();
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
        from += n;
    }
    std::fflush(stream);
}
} // namespace

// Masked first: a secret is matched as it is, before any of its characters is made visible.
void printOut(const QString &text)
{
    write(stdout, terminalSafe(SecretMask::maskOutput(text)));
}

void printErr(const QString &text)
{
    write(stderr, terminalSafe(SecretMask::maskOutput(text)));
}

void printJson(const QByteArray &json)
{
    printReady(jsonOutput(json));
}

QByteArray jsonOutput(const QByteArray &json)
{
    return jsonTerminalSafe(SecretMask::maskKnown(json, SecretMask::known()));
}

void printReady(const QByteArray &ready)
{
    write(stdout, ready);
}

QString toJsonText(const QJsonObject &object, bool indented)
{
    QString text = QString::fromUtf8(
        QJsonDocument(object).toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact));
    if (!text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    return text;
}

QString toJsonLine(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

QString shortCursor(const QString &text, int width)
{
    const QString cursor = oneLineSafe(text);
    if (cursor.isEmpty())
        return QStringLiteral("\"\"");
    if (cursor.size() <= width)
        return cursor;
    // Cut in the middle: cursors of one list share their start (a base64 of the same JSON), and
    // it is the end that tells one page's from the next.
    const qsizetype keep = qMax(2, width - 9);
    qsizetype head = (keep + 1) / 2, tail = keep / 2;
    if (cursor.at(head - 1).isHighSurrogate())
        --head;
    if (cursor.at(cursor.size() - tail).isLowSurrogate())
        --tail;
    return cursor.left(head) + QChar(0x2026) + cursor.right(tail) +
           QStringLiteral(" (%1)").arg(cursor.size());
}

QString padded(const QString &text, int width)
{
    return text.size() >= width ? text : text + QString(width - text.size(), QLatin1Char(' '));
}

} // namespace folio
