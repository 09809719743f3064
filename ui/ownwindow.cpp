#include "ownwindow.h"

#include <QKeySequence>
#include <QRect>
#include <QScreen>
#include <QShortcut>
#include <QWidget>

namespace folio {

void showAsOwnWindow(QWidget *pane, const QString &title, QSize size)
{
    QWidget *over = pane->parentWidget() ? pane->parentWidget()->window() : nullptr;
    pane->setWindowFlag(Qt::Window);
    pane->setAttribute(Qt::WA_DeleteOnClose);
    pane->setWindowTitle(title);
    // Within the screen of the window it comes from, centred over that window.
    const QScreen *screen = over ? over->screen() : pane->screen();
    const QRect room = screen ? screen->availableGeometry() : QRect(QPoint(0, 0), size);
    pane->resize(size.boundedTo(room.size() * 0.9));
    const auto placed = [&](QRect frame) {
        frame.moveCenter(over ? over->frameGeometry().center() : room.center());
        frame.moveLeft(
            qBound(room.left(), frame.left(), room.left() + qMax(0, room.width() - frame.width())));
        frame.moveTop(qBound(room.top(), frame.top(), room.top() + qMax(0, room.height() - frame.height())));
        return frame.topLeft();
    };
    // Placed by its own size first, so that it opens where it stays; once shown its frame is known,
    // and it moves only if the frame would leave the screen.
    pane->move(placed(QRect(QPoint(0, 0), pane->size())));
    pane->show();
    if (!room.contains(pane->frameGeometry()))
        pane->move(placed(pane->frameGeometry()));
    pane->activateWindow();
}

void addCloseKeys(QWidget *pane, const std::function<bool()> &escape)
{
    auto *closeKey = new QShortcut(QKeySequence::Close, pane);
    closeKey->setContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(closeKey, &QShortcut::activated, pane, [pane] {
        if (pane->isWindow())
            pane->close();
    });
    auto *escapeKey = new QShortcut(QKeySequence(Qt::Key_Escape), pane);
    escapeKey->setContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(escapeKey, &QShortcut::activated, pane, [pane, escape] {
        if (escape && escape())
            return;
        if (pane->isWindow())
            pane->close();
    });
}

} // namespace folio
