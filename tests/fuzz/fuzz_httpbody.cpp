// describeBody (net/httpsupport.h): what an HTTP body that is not the JSON asked for is, in a few
// words (an HTML page by its title, else its first characters). Never crashes on any body and
// content type; what it returns is one line (no control character: a body's are replaced) and bounded: at
// most width characters of the body's own text, plus the fixed words around an HTML title.
#include "fuzzcheck.h"
#include "httpsupport.h"

using namespace folio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input = fuzzInput(data, size);
    if (input.size() < 2)
        return 0;
    // The first byte picks the content type and the width; the rest is the body.
    static const QByteArray types[] = {"text/html; charset=utf-8", "application/json", "", "TEXT/HTML",
                                       "text/plain"};
    const QByteArray type = types[uchar(input[0]) % 5];
    const int width = 1 + uchar(input[0]) / 5 % 300;
    const QByteArray body = input.sliced(1).toByteArray();
    const QString said = describeBody(type, body, width);
    const QString wrapper = QStringLiteral("an HTML page titled \"\"");
    FUZZ_CHECK(said.size() <= width + wrapper.size(), said);
    for (const QChar c : said)
        FUZZ_CHECK(c.unicode() >= 0x20 && c.unicode() != 0x7f, said); // one line, nothing for a terminal
    return 0;
}
