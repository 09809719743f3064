#pragma once

#include <QDialog>

class QMenuBar;
class QTreeWidget;

namespace folio {

// Help > Keyboard Shortcuts: every action of the window's menus that has keys, under its menu,
// read from the menus themselves (so it is never out of date), then the keys the page strip, the
// timeline and the table take, which are no menu's.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QMenuBar *menus, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }

private:
    QTreeWidget *m_tree;
};

} // namespace folio
