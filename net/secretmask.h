#pragma once

#include "httpexchange.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QUrl>

namespace folio {

// The one home of masking: everything that leaves the process (reports, recordings, exports, the
// traffic log, log lines, the command line's stdout and stderr, the clipboard) is masked by these
// functions, and a masked value always reads maskedText(), "[redacted]". Each function is
// idempotent: masking masked text changes nothing.
//
// Two kinds of masking:
// - by shape: what looks like a secret wherever it is (a command line's --token X, NAME=value
//   with a secret NAME, a URL's access_token=, an Authorization header, a JSON "password" member);
// - by value: maskKnown() replaces every occurrence of values known to be secret (the bearer
//   token, secret header values, secret environment values, a command line's secret arguments,
//   sign-in tokens). Values shorter than MinSecretLength are ignored (they would mask everything),
//   and so are values that are part of maskedText() itself ("redacted" cannot be hidden by
//   "[redacted]").
namespace SecretMask {

constexpr qsizetype MinSecretLength = 4;

// "[redacted]".
QString maskedText();

// Whether a name (a flag without its dashes, an environment variable, a query item, a JSON member)
// names a secret. Decided by its words (split at '-', '_', '.' and lower-to-upper case changes), so
// that --tokenizer-threads, PATH and KEYBOARD are not secrets but --api-key, GITHUB_TOKEN and
// accessToken are. A flag's value is secret when its last word is (--token-file names a file);
// an environment variable's when any word is.
// "--token", "-token" (Go), "-t", "--api-key", "--client-secret", ...; no other one-letter flag.
bool isSecretFlag(QStringView flag);
bool isSecretVariable(QStringView name);
bool isSecretQueryItem(QStringView name);
// Authorization, Proxy-Authorization, Cookie, Set-Cookie, and any name holding "token", "secret"
// or "key" (X-Api-Key). Mcp-Session-Id is not: it names the session.
bool isSecretHeader(QByteArrayView name);

// A command line (the program first) with the values of secret flags (both "--flag X" and
// "--flag=X"), of NAME=value assignments with a secret NAME (env GITHUB_TOKEN=...), and of secret
// "Name: value" header arguments masked. A word with spaces in it (sh -c '...') is masked as a
// command line of its own.
QStringList maskCommandLine(const QStringList &words);
// The values maskCommandLine() masks, for maskKnown().
QStringList secretsInCommandLine(const QStringList &words);

// A URL as text with its user info (the password, or the whole when it has no ':') and its secret
// query and fragment items masked; the rest stays as it was written.
QString maskUrl(const QString &url);
QString maskUrl(const QUrl &url);
// The values maskUrl() masks.
QStringList secretsInUrl(const QUrl &url);
// Every http:// or https:// URL in a text (a log line) masked with maskUrl().
QString maskUrlsIn(const QString &text);

// Header values: secret headers' values are maskedText(), the others masked with maskKnown().
HttpExchange::Headers maskHeaders(const HttpExchange::Headers &headers, const QStringList &known = {});

// Every occurrence of each known secret (as it is, percent-encoded and JSON-escaped) replaced by
// maskedText(); overlapping and adjacent occurrences read one maskedText().
QString maskKnown(const QString &text, const QStringList &secrets);
QByteArray maskKnown(const QByteArray &text, const QStringList &secrets);
// The same on every string (values and member names) of a JSON value.
QJsonValue maskKnown(const QJsonValue &value, const QStringList &secrets);

// Credentials by shape in a text: header lines (Authorization: ..., Cookie: ...), "Bearer X", JSON
// members such as "access_token": "...". mayCarryCredentials() is the cheap scan that most
// messages pass without the regular expressions.
QByteArray maskCredentials(const QByteArray &text);
bool mayCarryCredentials(const QByteArray &text);

// maskKnown(), then maskCredentials(): what the traffic log, recordings and reports apply to a
// message or a whole document.
QByteArray maskMessage(const QByteArray &text, const QStringList &secrets);
QJsonValue maskMessage(const QJsonValue &value, const QStringList &secrets);

// A secret abbreviated for a person who must tell two apart, in the window's own views of the
// user's own secrets (the server dialog, an import, the sign-in panel) and `folio auth -v`: its
// first 4 characters and its length ("eyJh… (812 chars)"), or "•••• (N chars)" up to 8
// characters. Not for what leaves the process as data: that reads maskedText().
QString abbreviate(const QString &secret);
// An OAuth exchange as the sign-in panel and `folio auth -v` show it: secret headers' values
// abbreviated (the scheme of Authorization kept), and the secret fields (isSecretQueryItem()) of
// form and JSON bodies, of the URL's query and of a Location header.
HttpExchange abbreviateExchange(const HttpExchange &exchange);

// The secrets known to this process: every secret a client was configured with or signed in with
// (McpClient adds them). Output that is not tied to one client — the command line's stdout and
// stderr, log lines, the clipboard — is masked with these. The process's stdout, its log and
// its clipboard are one each, so this list is too.
void remember(const QString &secret);
void remember(const QStringList &secrets);
QStringList known();
// maskKnown() with known(): for stdout, stderr and the clipboard.
QString maskOutput(const QString &text);
// maskOutput() and maskUrlsIn(): for log lines, which also carry URLs Folio fetched.
QString maskLogLine(const QString &text);

} // namespace SecretMask

} // namespace folio
