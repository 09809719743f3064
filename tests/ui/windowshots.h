#pragma once

#include <QString>

namespace folio {

// The main window on the demo server (demoServer, its tour scenario): walks its lists, audits,
// reads, calls, signs in and replays, and saves PNGs of each in the light and the dark palette
// into directory. Runs the event loop until done: 0, or 1 if a step timed out. Part of
// folio-screenshots (screenshots.cpp), which gives it throwaway settings first.
int takeWindowShots(const QString &demoServer, const QString &directory);

} // namespace folio
