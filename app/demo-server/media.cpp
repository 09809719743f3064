#include "media.h"

#include <QtEndian>

#include <cmath>

namespace demo::Media {

namespace {

quint32 crc32(const QByteArray &bytes)
{
    quint32 crc = 0xffffffffU;
    for (const char byte : bytes) {
        crc ^= quint8(byte);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1U)));
    }
    return ~crc;
}

void appendBig32(QByteArray &out, quint32 value)
{
    char bytes[4];
    qToBigEndian(value, bytes);
    out.append(bytes, 4);
}

void appendLittle(QByteArray &out, quint32 value, int size)
{
    for (int i = 0; i < size; ++i)
        out.append(char((value >> (8 * i)) & 0xff));
}

void appendChunk(QByteArray &png, const char *type, const QByteArray &data)
{
    appendBig32(png, quint32(data.size()));
    const QByteArray typed = QByteArray(type, 4) + data;
    png.append(typed);
    appendBig32(png, crc32(typed));
}

} // namespace

QByteArray png(int scale)
{
    scale = qBound(1, scale, 8);
    const int size = 16 * scale;
    QByteArray raw;
    for (int py = 0; py < size; ++py) {
        const int y = py / scale;
        raw.append('\0'); // filter: none
        for (int px = 0; px < size; ++px) {
            const int x = px / scale;
            const bool bubble = x >= 3 && x <= 12 && y >= 3 && y <= 10;
            const bool tail = y > 10 && y <= 13 && x >= 4 && x <= 4 + (13 - y);
            const bool white = bubble || tail;
            raw.append(char(white ? 0xff : 0x1e));
            raw.append(char(white ? 0xff : 0x6f));
            raw.append(char(white ? 0xff : 0xd0));
        }
    }
    QByteArray header;
    appendBig32(header, size);
    appendBig32(header, size);
    header.append(char(8)); // bit depth
    header.append(char(2)); // truecolour
    header.append(3, '\0'); // compression, filter, interlace
    QByteArray out("\x89PNG\r\n\x1a\n", 8);
    appendChunk(out, "IHDR", header);
    appendChunk(out, "IDAT", qCompress(raw).mid(4)); // qCompress prefixes the zlib stream with its length
    appendChunk(out, "IEND", {});
    return out;
}

QByteArray wav()
{
    constexpr int rate = 8000;
    constexpr int samples = rate / 4;
    QByteArray out("RIFF");
    appendLittle(out, 36 + samples, 4);
    out.append("WAVEfmt ");
    appendLittle(out, 16, 4); // fmt chunk size
    appendLittle(out, 1, 2);  // PCM
    appendLittle(out, 1, 2);  // mono
    appendLittle(out, rate, 4);
    appendLittle(out, rate, 4); // bytes per second
    appendLittle(out, 1, 2);    // block align
    appendLittle(out, 8, 2);    // bits per sample
    out.append("data");
    appendLittle(out, samples, 4);
    for (int i = 0; i < samples; ++i) {
        const double fade = 1.0 - double(i) / samples;
        const double value = std::sin(2.0 * M_PI * 440.0 * i / rate) * fade;
        out.append(char(quint8(128 + std::lround(100.0 * value))));
    }
    return out;
}

} // namespace demo::Media
