#pragma once

#include <QString>

#include <functional>

class QAction;
class QWidget;

namespace folio {

// Gives a widget a context menu with one "Copy" that puts text() on the clipboard: how Folio's
// plain labels are copied (a selectable label is laid out and drawn as a text document).
QAction *addCopyAction(QWidget *widget, std::function<QString()> text);

// The one way text reaches the clipboard: with every secret this process knows masked
// (SecretMask::maskOutput()), as on every other way out.
void copyToClipboard(const QString &text);

} // namespace folio
