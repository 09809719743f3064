#include "shortcutsdialog.h"

#include "menuactions.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

ShortcutsDialog::ShortcutsDialog(const QMenuBar *menus, QWidget *parent)
    : QDialog(parent)
    , m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_tree->setObjectName(QStringLiteral("shortcuts"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("What"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->setAccessibleName(tr("Keyboard shortcuts"));
    // The actions that have keys, under their menus.
    QTreeWidgetItem *group = nullptr;
    for (const MenuAction &m : menuActions(menus)) {
        const QString keys = actionKeys(m.action);
        if (keys.isEmpty())
            continue;
        if (!group || group->text(0) != m.menu)
            group = new QTreeWidgetItem(m_tree, {m.menu});
        new QTreeWidgetItem(group, {m.path, keys});
    }
    // What no menu says: the keys of the page views and the table.
    auto *pages = new QTreeWidgetItem(m_tree, {tr("Page strip and timeline")});
    const QList<QPair<QString, QString>> pageKeys{
        {tr("Previous or next page"), tr("Left, Right (strip); Up, Down (timeline)")},
        {tr("First or last page"), tr("Home, End (strip)")},
        {tr("Open the page in the inspector"), tr("Enter, or a double click")},
        {tr("Copy the page as its tooltip tells it"),
         QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText)},
        {tr("Timeline: zoom in, zoom out, fit"), tr("+, -, Home or 0; the wheel zooms, a drag pans")}};
    for (const auto &[what, keys] : pageKeys)
        new QTreeWidgetItem(pages, {what, keys});
    m_tree->expandAll();
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QFont bold = m_tree->topLevelItem(i)->font(0);
        bold.setBold(true);
        m_tree->topLevelItem(i)->setFont(0, bold);
        m_tree->topLevelItem(i)->setFirstColumnSpanned(true);
    }

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tree);
    layout->addWidget(buttons);
    resize(560, 640);
}

} // namespace folio
