#pragma once

#include <QByteArray>

namespace demo::Media {

// Small media made in code, so that the demo server carries no binary files: a 16x16 PNG (a chat
// bubble on a blue square) and a quarter-second 440 Hz WAV chime (8 kHz, 8-bit mono).
QByteArray png(int scale = 1); // 16 * scale pixels square
QByteArray wav();

} // namespace demo::Media
