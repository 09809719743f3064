#pragma once

class QMenuBar;
class QWidget;

namespace folio {

// The window's Help menu: Keyboard Shortcuts (read from the menu bar's own actions), What Am I
// Looking At? (the guide to the window's parts) and About Folio. Each dialog is the window's child
// and deletes itself on closing.
void addHelpMenu(QMenuBar *bar, QWidget *window);

} // namespace folio
