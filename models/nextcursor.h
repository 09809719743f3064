#pragma once

#include <QJsonValue>
#include <QString>

#include <optional>

namespace folio {

// A page's next cursor exactly as it stood in the result: absent, null, a string ("" included: a
// cursor, not the end of the list), or a value of another type. One type from the reply to the
// record (ListSource::Page, PageLedger::PageAnswer, PageRecord), as CacheHints is for the hints.
struct NextCursor
{
    enum class Presence { Absent, Null, String, WrongType };

    Presence presence = Presence::Absent;
    // When a string. Kept once, as text: a walk keeps every page's, and a server's cursor may be
    // long.
    QString text;
    // When of another type: the value as received, for showing (PageRecord::describeValue).
    QJsonValue raw;

    // The member as it stood in a result (present: the result has the member at all).
    static NextCursor of(const QJsonValue &value, bool present);
    static NextCursor string(const QString &cursor) { return {Presence::String, cursor, {}}; }

    bool isString() const { return presence == Presence::String; }
    // The cursor to send back: the string, "" included; nothing when it is not a string.
    std::optional<QString> cursor() const { return isString() ? std::optional<QString>(text) : std::nullopt; }
    // The same cursor with storage of its own, for what is kept (see CacheHints::detached()).
    NextCursor detached() const;
    // What keeping it costs (the text, UTF-16).
    qint64 keptBytes() const { return text.size() * qint64(sizeof(QChar)); }

    friend bool operator==(const NextCursor &, const NextCursor &) = default;
};

} // namespace folio
