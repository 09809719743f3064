#pragma once

#include <QSize>
#include <QString>

#include <functional>

class QWidget;

namespace folio {

// A pane shown as a window of its own over its parent's window (a tool's call, a prompt, a
// skill): titled, deleted when closed, sized within the screen that window is on and centred
// over it, then activated.
void showAsOwnWindow(QWidget *pane, const QString &title, QSize size);
// Ctrl+W closes the pane when it is a window; Esc first asks escape (when given: true when it
// handled the key, say by cancelling a running request), then closes it.
void addCloseKeys(QWidget *pane, const std::function<bool()> &escape = {});

} // namespace folio
