#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringView>

#include <utility>

namespace folio {

// One challenge of a WWW-Authenticate (or Proxy-Authenticate) field, RFC 9110 §11.6.1:
// a scheme with either a token68 or auth-params.
struct AuthChallenge
{
    QString scheme;  // as received; schemes are case-insensitive (isScheme)
    QString token68; // when the challenge carries a token68 instead of parameters, else empty
    // The auth-params in the order received: names lowercased (they are case-insensitive), values
    // unquoted and unescaped. A name given twice is kept twice; param() answers the first.
    QList<std::pair<QString, QString>> params;

    bool isScheme(QStringView name) const { return scheme.compare(name, Qt::CaseInsensitive) == 0; }
    // The value of the first parameter of that name (compared case-insensitively), or a null
    // QString when there is none ("" when it was given empty, name="").
    QString param(QStringView name) const;
    bool hasParam(QStringView name) const { return !param(name).isNull(); }

    friend bool operator==(const AuthChallenge &, const AuthChallenge &) = default;
};

// The challenges of one field value (several fields joined with ", " read as one). Tolerant: empty
// list elements are skipped, and an element that is not a challenge or an auth-param (a stray
// character, a parameter without '=' or value, an unterminated quoted-string) is dropped up to the
// next comma outside a quoted-string; what was read before it is kept. CR and LF outside
// quoted-strings count as whitespace (obs-fold). Bytes are read as UTF-8
// where they are valid UTF-8, else as Latin-1. Linear in the input; reads nothing outside it.
QList<AuthChallenge> parseWwwAuthenticate(QByteArrayView header);

} // namespace folio
