// parseWwwAuthenticate (net/wwwauthenticate.h): never crashes, what it returns is well formed (a
// scheme and names that are tokens, names lowercased, a token68 or parameters), and it round-trips:
// the challenges written back (each value as a quoted-string, '"' and '\' escaped) read as the same
// challenges.
#include "fuzzcheck.h"
#include "wwwauthenticate.h"

using namespace folio;

namespace {

bool isToken(const QString &s)
{
    if (s.isEmpty())
        return false;
    for (const QChar c : s) {
        if (c.unicode() > 0x7e || !(c.isLetterOrNumber() || QStringView(u"!#$%&'*+-.^_`|~").contains(c)))
            return false;
    }
    return true;
}

QByteArray serialise(const QList<AuthChallenge> &challenges)
{
    QByteArray out;
    for (const AuthChallenge &c : challenges) {
        if (!out.isEmpty())
            out += ", ";
        out += c.scheme.toLatin1();
        if (!c.token68.isEmpty()) {
            out += ' ' + c.token68.toLatin1();
            continue;
        }
        for (qsizetype i = 0; i < c.params.size(); ++i) {
            out += i == 0 ? " " : ", ";
            out += c.params[i].first.toLatin1() + "=\"";
            for (const char b : c.params[i].second.toUtf8()) {
                if (b == '"' || b == '\\')
                    out += '\\';
                out += b;
            }
            out += '"';
        }
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QList<AuthChallenge> challenges = parseWwwAuthenticate(fuzzInput(data, size));
    FUZZ_CHECK(challenges.size() <= qsizetype(size));
    for (const AuthChallenge &c : challenges) {
        FUZZ_CHECK(isToken(c.scheme), c.scheme);
        FUZZ_CHECK(c.token68.isEmpty() || c.params.isEmpty());
        for (const auto &[name, value] : c.params) {
            FUZZ_CHECK(isToken(name) && name == name.toLower(), name);
            FUZZ_CHECK(c.hasParam(name) && c.hasParam(name.toUpper()));
            for (const QChar ch : value)
                FUZZ_CHECK(ch.unicode() >= 0x20 || ch == QLatin1Char('\t'), value);
        }
    }
    const QByteArray written = serialise(challenges);
    const QList<AuthChallenge> again = parseWwwAuthenticate(written);
    FUZZ_CHECK(again == challenges, QString::fromUtf8(written));
    return 0;
}
