#include "terminaltext.h"

#include <QtAlgorithms>

#include <cstdio>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace folio {

namespace {

QString codePoint(char32_t c)
{
    return QStringLiteral("U+%1").arg(uint(c), 4, 16, QLatin1Char('0')).toUpper();
}

QString visible(char32_t c)
{
    return QLatin1Char('<') + codePoint(c) + QLatin1Char('>');
}

enum class Form { MultiLine, OneLine, Markup };

QString filtered(QStringView text, Form form, const QString *original = nullptr)
{
    QString out; // made only when something is to be shown: most text passes unchanged, uncopied
    qsizetype plainFrom = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t c = text.at(i).unicode();
        qsizetype units = 1;
        if (QChar::isHighSurrogate(c) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            units = 2;
        }
        // A CR right before an LF ends a line as CRLF (CSV's rows): it moves nothing on the screen.
        const bool crlf = c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n';
        const bool kept = form != Form::OneLine && (c == u'\n' || c == u'\t' || crlf);
        if (kept || !isHiddenCharacter(c)) {
            i += units - 1;
            continue;
        }
        if (out.isNull())
            out.reserve(text.size() + 16);
        out += text.sliced(plainFrom, i - plainFrom);
        out += form == Form::Markup ? QStringLiteral("&lt;") + codePoint(c) + QStringLiteral("&gt;")
                                    : visible(c);
        plainFrom = i + units;
        i += units - 1;
    }
    if (plainFrom == 0)
        return original ? *original : text.toString(); // a QString unchanged is shared, not copied
    out += text.sliced(plainFrom);
    return out;
}

void appendEscape(QByteArray *out, char32_t c)
{
    // JSON escapes UTF-16 units: a character outside the BMP (a tag character) is a pair.
    char buffer[16];
    int length = 0;
    if (c > 0xffff)
        length = std::snprintf(buffer, sizeof buffer, "\\u%04x\\u%04x", uint(QChar::highSurrogate(c)),
                               uint(QChar::lowSurrogate(c)));
    else
        length = std::snprintf(buffer, sizeof buffer, "\\u%04x", uint(c));
    out->append(buffer, length);
}

} // namespace

bool isHiddenCharacter(char32_t c)
{
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
        return true; // C0, DEL, C1 (U+009B is CSI to many terminals)
    switch (c) {
    case 0x00ad: // soft hyphen
    case 0x061c: // Arabic letter mark
    case 0x180e: // Mongolian vowel separator
    case 0x2028: // line separator
    case 0x2029: // paragraph separator
    case 0xfeff: // zero-width no-break space (BOM)
        return true;
    default:
        break;
    }
    return (c >= 0x200b && c <= 0x200f)       // zero-width space, ZWNJ, ZWJ, LRM, RLM
           || (c >= 0x202a && c <= 0x202e)    // LRE, RLE, PDF, LRO, RLO
           || (c >= 0x2060 && c <= 0x2064)    // word joiner, invisible operators
           || (c >= 0x2066 && c <= 0x2069)    // LRI, RLI, FSI, PDI
           || (c >= 0xfff9 && c <= 0xfffb)    // interlinear annotation
           || (c >= 0xe0000 && c <= 0xe007f); // tag characters (text hidden from the reader)
}

QString terminalSafe(QStringView text)
{
    return filtered(text, Form::MultiLine);
}

QString oneLineSafe(QStringView text)
{
    return filtered(text, Form::OneLine);
}

QString terminalSafe(const QString &text)
{
    return filtered(text, Form::MultiLine, &text);
}

QString oneLineSafe(const QString &text)
{
    return filtered(text, Form::OneLine, &text);
}

QString markupTerminalSafe(QStringView text)
{
    return filtered(text, Form::Markup);
}

QByteArray jsonTerminalSafe(const QByteArray &json)
{
    // Most JSON holds nothing to escape: it is returned as it is (shared), with no copy made.
    QByteArray out;
    bool copying = false;
    qsizetype copiedTo = 0; // json[0, copiedTo) is in out
    auto startCopy = [&](qsizetype at) {
        if (!copying) {
            out.reserve(json.size() + 64);
            copying = true;
        }
        out.append(json.constData() + copiedTo, at - copiedTo);
    };
    const auto *p = reinterpret_cast<const uchar *>(json.constData());
    const qsizetype n = json.size();
    qsizetype i = 0;
    while (i < n) {
#ifdef __SSE2__
        // Sixteen bytes at a time while they are printable ASCII, '\n' or '\t' (a whole page of
        // items usually is): only a byte below 0x20, 0x7f or one of UTF-8 needs looking at.
        // Signed, a byte of 0x80 and above is below 0x20 too.
        for (; n - i >= 16; i += 16) {
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i));
            const __m128i allowed =
                _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
            const __m128i low = _mm_andnot_si128(allowed, _mm_cmplt_epi8(x, _mm_set1_epi8(0x20)));
            const __m128i special = _mm_or_si128(low, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
            if (const int mask = _mm_movemask_epi8(special)) {
                i += qCountTrailingZeroBits(unsigned(mask));
                break;
            }
        }
        if (i >= n)
            break;
#endif
        const uchar b = p[i];
        if (b < 0x80) {
            if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) {
                startCopy(i);
                appendEscape(&out, b);
                copiedTo = i + 1;
            }
            ++i;
            continue;
        }
        // One UTF-8 sequence, checked as QString::fromUtf8 would (no overlong form, no surrogate).
        int length = 0;
        char32_t c = 0, min = 0;
        if (b >= 0xc2 && b <= 0xdf) {
            length = 2, c = b & 0x1f, min = 0x80;
        } else if (b >= 0xe0 && b <= 0xef) {
            length = 3, c = b & 0x0f, min = 0x800;
        } else if (b >= 0xf0 && b <= 0xf4) {
            length = 4, c = b & 0x07, min = 0x10000;
        }
        bool valid = length > 0 && i + length <= n;
        for (int k = 1; valid && k < length; ++k) {
            valid = (p[i + k] & 0xc0) == 0x80;
            c = (c << 6) | (p[i + k] & 0x3f);
        }
        valid = valid && c >= min && c <= 0x10ffff && (c < 0xd800 || c > 0xdfff);
        if (!valid) {
            startCopy(i);
            out.append("\xef\xbf\xbd"); // U+FFFD, as QString::fromUtf8 reads it
            copiedTo = ++i;
            continue;
        }
        if (isHiddenCharacter(c)) {
            startCopy(i);
            appendEscape(&out, c);
            copiedTo = i + length;
        }
        i += length;
    }
    if (!copying)
        return json;
    out.append(json.constData() + copiedTo, n - copiedTo);
    return out;
}

QList<char32_t> hiddenCharacters(QStringView text)
{
    QList<char32_t> found;
    for (char32_t c : text.toUcs4()) {
        if (isHiddenCharacter(c) && !found.contains(c))
            found.append(c);
    }
    return found;
}

namespace {

// Letters that read as Latin ones in most fonts: Greek, Cyrillic (and its supplement), Armenian,
// Cherokee, fullwidth Latin, and the mathematical alphanumerics. Latin letters with accents are
// not among them: "café_search" is a name, not a disguise.
bool isConfusableLetter(char32_t c)
{
    return (c >= 0x0370 && c <= 0x03ff) || (c >= 0x0400 && c <= 0x052f) || (c >= 0x0530 && c <= 0x058f) ||
           (c >= 0x13a0 && c <= 0x13ff) || (c >= 0xff01 && c <= 0xff5e) || (c >= 0x1d400 && c <= 0x1d7ff);
}

} // namespace

QList<char32_t> lookAlikeCharacters(QStringView name)
{
    bool asciiLetter = false;
    QList<char32_t> found;
    for (char32_t c : name.toUcs4()) {
        asciiLetter = asciiLetter || (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
        if (isConfusableLetter(c) && !found.contains(c))
            found.append(c);
    }
    return asciiLetter ? found : QList<char32_t>();
}

QString describeCodePoints(const QList<char32_t> &codePoints)
{
    QStringList parts;
    for (char32_t c : codePoints)
        parts << codePoint(c);
    return parts.join(QStringLiteral(", "));
}

QString elide(const QString &text, int width)
{
    const QString s = oneLineSafe(text);
    if (width <= 0 || s.size() <= width)
        return s;
    qsizetype cut = qMax(0, width - 1);
    if (cut > 0 && s.at(cut - 1).isHighSurrogate())
        --cut;
    return s.left(cut) + QChar(0x2026);
}

} // namespace folio
