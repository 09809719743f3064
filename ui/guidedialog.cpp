#include "guidedialog.h"

#include "legendbar.h"
#include "statuscolors.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace folio {

namespace {

QString swatch(const QColor &color)
{
    return QStringLiteral("<span style=\"background-color:%1;\">&nbsp;&nbsp;&nbsp;&nbsp;</span>")
        .arg(color.name());
}

} // namespace

GuideDialog::GuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("guide"));
    setWindowTitle(tr("What Am I Looking At?"));
    m_text->setObjectName(QStringLiteral("guideText"));
    m_text->setOpenLinks(false);
    m_text->setHtml(html(palette()));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new LegendBar(this));
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(640, 620);
}

void GuideDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        m_text->setHtml(html(palette()));
}

QString GuideDialog::html(const QPalette &palette)
{
    const StatusColors c(palette);
    const auto section = [](const QString &title, const QString &body) {
        return QStringLiteral("<h3>%1</h3><p>%2</p>").arg(title, body);
    };
    QString out;
    out += section(
        tr("The page strip"),
        tr("Each chip is one request for a page of the list, in the order Folio asked: its number, how "
           "many items it held, and a badge for the cache scope the server gave it (public, private, "
           "missing or invalid). The bar along its foot is its time to live counting down: %1 fresh, "
           "%2 stale, %3 expired; stripes while it is fetched again. A %4 chip failed, with the error "
           "on it; a struck-through one was discarded (its walk restarted, or Folio asked without the "
           "arguments a tool wants) and stays in the history. An arc above the chips is a cursor the "
           "server handed back twice: a loop. A dashed line below joins pages that held the same items. "
           "Earlier walks fold into one block at the start; click it to see them.")
            .arg(swatch(c.fresh()), swatch(c.stale()), swatch(c.expired()), swatch(c.failed())));
    out += section(tr("The table"),
                   tr("The items as they arrived, page after page; the coloured margin of a row says which "
                      "page brought it and how that page is doing. Select a row for its JSON on the right; "
                      "Ctrl+F filters the rows loaded."));
    out += section(tr("The inspector"),
                   tr("The selected page in full: the cursor it was asked with and the next one it gave, raw "
                      "and decoded when they decode (base64, JSON, a JWT's claims), its cache hints as sent "
                      "and as applied, the timing, the error, and its findings. Refetch asks for the page "
                      "again with its own cursor and compares the copies."));
    out += section(tr("The timeline"),
                   tr("One lane per request: the thick part is the wait for the answer, the pale band after "
                      "it the page's time to live. The marked line is now."));
    out += section(tr("Findings"),
                   tr("What Folio judged of what arrived: a loop, a refused cursor, duplicates, missing or "
                      "invalid cache hints, a scope that changes between pages. Each has an id (listed in "
                      "docs/findings.md), a severity %1 error, %2 warning, %3 info, and the page where it "
                      "was seen: double-click it in the Findings dock to open that page. No finding means "
                      "every page read was judged and none was wrong.")
                       .arg(swatch(c.severity(Finding::Severity::Error)),
                            swatch(c.severity(Finding::Severity::Warning)),
                            swatch(c.severity(Finding::Severity::Info))));
    out += section(tr("The server list"),
                   tr("The dot is the connection: %1 connected, %2 connecting, %3 could not connect, grey "
                      "not connected. A badge beside the name is the worst finding of its lists.")
                       .arg(swatch(c.fresh()), swatch(c.stale()), swatch(c.failed())));
    out += section(tr("Find anything"),
                   tr("Ctrl+K finds an action, a server, a list, an item or a finding by a few of its "
                      "letters. F1 lists every key."));
    return out;
}

} // namespace folio
