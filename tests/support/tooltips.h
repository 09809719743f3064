#pragma once

// Widget tests only: this header needs Qt Widgets.

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QHelpEvent>
#include <QPoint>

namespace testsupport {

// Asks view for its tooltip at pos (in its viewport's coordinates), as the pointer resting there
// would; QToolTip::text() then holds what the view shows, if anything.
inline void askToolTip(QAbstractScrollArea &view, const QPoint &pos)
{
    QHelpEvent help(QEvent::ToolTip, pos, view.viewport()->mapToGlobal(pos));
    QCoreApplication::sendEvent(view.viewport(), &help);
}

} // namespace testsupport
