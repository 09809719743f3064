#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace folio {

// Cursors are opaque by protocol, but seeing what a server packed into one explains loops, gaps and
// leaks; this is a best-effort, non-normative look inside, never used to build or edit a cursor.

// One decoding step of a cursor, and what it held.
struct CursorLayer
{
    enum class Kind {
        Base64,    // text: the decoded text; one child: what that text is
        Base64Url, // as Base64
        Hex,       // as Base64
        Percent,   // as Base64
        Utf8Text,  // a leaf: printable text that decodes no further (text)
        Json,      // json: the object or array; text: the JSON as received; children: decoded string members
        JwtLike,   // text: the dotted cursor; json: {"parts": n, "opaque": {index: why}}; children: decoded
                   // parts
        Prefixed,  // a printable token: json {"prefix", "separator", "value"}; text: the value as received;
                   // one child when the value itself decodes
    };

    Kind kind = Kind::Utf8Text;
    // Where in the parent this layer was found: a JSON Pointer for JSON members ("/cursor"), "/0".. for
    // the parts of a JWT-like cursor; empty along the main chain.
    QString path;
    QString text;
    QJsonValue json;
    QList<CursorLayer> children;

    QString kindName() const { return kindName(kind); }
    static QString kindName(Kind kind);

    friend bool operator==(const CursorLayer &a, const CursorLayer &b);
    friend bool operator!=(const CursorLayer &a, const CursorLayer &b) { return !(a == b); }
};

// What decodeCursor() made of a cursor: nothing to decode, a tree of layers, or opaque with the reason.
struct CursorDecoding
{
    enum class Verdict {
        Empty,   // the cursor is "" (a valid cursor in 2026)
        Decoded, // layers holds one top-level layer
        Opaque,  // nothing decoded; error says where and why decoding stopped (not a fault)
    };

    Verdict verdict = Verdict::Empty;
    QList<CursorLayer> layers;
    QString error;

    bool isDecoded() const { return verdict == Verdict::Decoded; }
    QString verdictName() const;
    // One line for a table cell, e.g. {"o":40} or o:40; "" for the empty cursor, "opaque" otherwise.
    QString summary() const;
};

// Inputs longer than this are not decoded (verdict Opaque, with the reason).
constexpr qsizetype MaxDecodedCursorLength = 64 * 1024;
// Layers nested deeper than this are shown as text and not decoded further.
constexpr int MaxCursorDecodingDepth = 8;

CursorDecoding decodeCursor(const QString &cursor);

// A cursor as shown where it could leak tenant data: the first few characters, then its length, e.g.
// "eyJv… (24 chars)". The empty cursor stays "" (there is nothing to hide and it matters).
QString maskCursor(const QString &cursor);

// {"verdict", "nonNormative": true, "summary", "layers": [{"kind", "path"?, "text"?, "json"?, "children"}],
//  "error"?} for exports and the command line.
QJsonObject cursorDecodingToJson(const CursorDecoding &decoding);

// The decoding as a tree a person reads from the outside in, for the page inspector: each layer is
// keyed by its kind (and, for decoded members, where it was found); leaves hold the decoded JSON or text.
QJsonValue cursorDecodingTree(const CursorDecoding &decoding);

} // namespace folio
