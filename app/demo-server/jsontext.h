#pragma once

#include <QByteArray>
#include <QStringView>

// Writing JSON text by hand where QJsonObject would cost too much (a page of a large list is built
// on every request). Escapes as QJsonDocument's compact writer does, so the bytes are the same.
namespace JsonText {

inline void appendString(QByteArray &out, QStringView text)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.append('"');
    qsizetype runStart = 0; // start of the pending run of non-ASCII text
    auto flush = [&](qsizetype end) {
        if (end > runStart)
            out.append(text.mid(runStart, end - runStart).toUtf8());
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c >= 0x80)
            continue; // part of a run converted to UTF-8 in one go
        flush(i);
        runStart = i + 1;
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
            if (c < 0x20) {
                const char escape[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
                out.append(escape, sizeof escape);
            } else {
                out.append(char(c));
            }
        }
    }
    flush(text.size());
    out.append('"');
}

} // namespace JsonText
