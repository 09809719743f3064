#pragma once

#include <QByteArray>
#include <QStringView>

// Writing JSON text by hand where QJsonObject would cost too much (a page of a large list is built
// on every request). Escapes as QJsonDocument's compact writer does, so the bytes are the same:
// '"', '\\' and control characters escaped, everything else as UTF-8.
namespace demo::JsonText {

inline void appendString(QByteArray &out, QStringView text)
{
    static constexpr char hex[] = "0123456789abcdef";
    const qsizetype start = out.size();
    out.resize(start + 2 + 6 * text.size()); // the worst case: every character \u00XX
    char *p = out.data() + start;
    *p++ = '"';
    const char16_t *s = text.utf16();
    const char16_t *end = s + text.size();
    while (s < end) {
        const char16_t c = *s++;
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            *p++ = char(c);
        } else if (c < 0x80) {
            *p++ = '\\';
            switch (c) {
            case '"':
                *p++ = '"';
                break;
            case '\\':
                *p++ = '\\';
                break;
            case '\b':
                *p++ = 'b';
                break;
            case '\f':
                *p++ = 'f';
                break;
            case '\n':
                *p++ = 'n';
                break;
            case '\r':
                *p++ = 'r';
                break;
            case '\t':
                *p++ = 't';
                break;
            default:
                *p++ = 'u';
                *p++ = '0';
                *p++ = '0';
                *p++ = hex[c >> 4];
                *p++ = hex[c & 0xf];
            }
        } else if (c < 0x800) {
            *p++ = char(0xc0 | (c >> 6));
            *p++ = char(0x80 | (c & 0x3f));
        } else if (QChar::isHighSurrogate(c) && s < end && QChar::isLowSurrogate(*s)) {
            const char32_t u = QChar::surrogateToUcs4(c, *s++);
            *p++ = char(0xf0 | (u >> 18));
            *p++ = char(0x80 | ((u >> 12) & 0x3f));
            *p++ = char(0x80 | ((u >> 6) & 0x3f));
            *p++ = char(0x80 | (u & 0x3f));
        } else {
            const char16_t u = QChar::isSurrogate(c) ? char16_t(0xfffd) : c; // a lone surrogate
            *p++ = char(0xe0 | (u >> 12));
            *p++ = char(0x80 | ((u >> 6) & 0x3f));
            *p++ = char(0x80 | (u & 0x3f));
        }
    }
    *p++ = '"';
    out.truncate(p - out.constData());
}

} // namespace demo::JsonText
