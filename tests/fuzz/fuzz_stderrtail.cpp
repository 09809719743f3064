// What Folio makes of a stdio server's last stderr lines (net/stdiotransport.h): the error line
// StdioTransport::errorLine() picks is one of the lines as written (trimmed), or nothing; the
// description that goes into the error says at most its error line and 8 lines, each cut to 240
// characters, whatever the server wrote.
#include "fuzzcheck.h"
#include "stdiotransport.h"

using namespace folio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    // Lines as the transport keeps them: trailing space chopped, blank lines left out.
    QStringList tail;
    for (const QByteArray &line : fuzzInput(data, size).toByteArray().split('\n')) {
        QString text = QString::fromUtf8(line);
        while (!text.isEmpty() && text.back().isSpace())
            text.chop(1);
        if (!text.trimmed().isEmpty())
            tail.append(text);
    }
    const QString said = StdioTransport::errorLine(tail);
    if (!said.isEmpty()) {
        bool found = false;
        for (const QString &line : std::as_const(tail))
            found = found || line.trimmed() == said;
        FUZZ_CHECK(found, said);
    }
    const QString described = StdioTransport::describeStderrTail(tail);
    const QStringList lines = described.split(QLatin1Char('\n'));
    FUZZ_CHECK(lines.size() <= 1 + 8, described);
    for (const QString &line : lines)
        FUZZ_CHECK(line.size() <= 240 + 120, line); // a line, or the lead-in with the error line
    return 0;
}
