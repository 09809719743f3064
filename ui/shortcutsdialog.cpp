#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {

QString plain(const QString &text)
{
    QString out = text;
    out.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return out.replace(QLatin1String("&&"), QLatin1String("&"));
}

QString keysOf(const QAction *action)
{
    QStringList keys;
    for (const QKeySequence &k : action->shortcuts())
        keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

// The actions of menu (and its submenus, under their names) that have keys.
void addMenu(QTreeWidgetItem *group, const QMenu *menu, const QString &prefix)
{
    for (const QAction *a : menu->actions()) {
        if (a->isSeparator())
            continue;
        if (const QMenu *sub = a->menu()) {
            addMenu(group, sub, prefix + plain(a->text()) + QStringLiteral(" \u203a "));
            continue;
        }
        if (!a->shortcuts().isEmpty())
            new QTreeWidgetItem(group, {prefix + plain(a->text()), keysOf(a)});
    }
}

} // namespace

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
    for (const QAction *a : menus->actions()) {
        const QMenu *menu = a->menu();
        if (!menu)
            continue;
        auto *group = new QTreeWidgetItem(m_tree, {plain(a->text())});
        addMenu(group, menu, QString());
        if (group->childCount() == 0)
            delete group;
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
