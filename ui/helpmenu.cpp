#include "helpmenu.h"

#include "guidedialog.h"
#include "protocol.h"
#include "shortcutsdialog.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace folio {

void addHelpMenu(QMenuBar *bar, QWidget *window)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("folio::MainWindow", text); };
    QMenu *help = bar->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, window, [bar, window] {
        auto *shortcuts = new ShortcutsDialog(bar, window);
        shortcuts->setAttribute(Qt::WA_DeleteOnClose);
        shortcuts->show();
    });
    QAction *guide = help->addAction(tr("&What Am I Looking At?"), QKeySequence::WhatsThis, window, [window] {
        auto *dialog = new GuideDialog(window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    guide->setObjectName(QStringLiteral("guideAction"));
    help->addAction(tr("&About Folio"), window, [window, tr] {
        QMessageBox::about(
            window, tr("About Folio"),
            tr("<h3>Folio %1</h3><p>An inspector for MCP servers that shows every page of every list: "
               "cursors, cache hints, TTLs and cursor errors.</p><p>Speaks MCP %2.</p>")
                .arg(QCoreApplication::applicationVersion(), Revision::all().join(QStringLiteral(", "))));
    });
}

} // namespace folio
