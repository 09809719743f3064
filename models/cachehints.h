#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace folio {

// A result's cache hints exactly as received (2026-07-28: ttlMs and cacheScope), each present or
// not, of whatever JSON type it came as. Nothing is filled in: what Folio makes of them (the
// effective TTL, the judged scope) is kept beside them. One type from the reply to the record, for
// list pages (ListSource::Page, PageLedger::PageAnswer, PageRecord) and reads (ReadRecord).
struct CacheHints
{
    bool hasTtl = false;
    QJsonValue ttlMs = QJsonValue(QJsonValue::Undefined); // as received, when hasTtl
    bool hasScope = false;
    QJsonValue cacheScope = QJsonValue(QJsonValue::Undefined); // as received, when hasScope

    // The hints of a result, sharing its storage (cheap, for a value read and dropped).
    static CacheHints of(const QJsonObject &result);
    // The same hints with storage of their own, for what is kept: a value taken out of a parsed
    // reply holds the whole reply in memory for as long as it lives.
    CacheHints detached() const;
    // The ttlMs to count down from (TtlClock::effectiveTtlMs): as received, null when absent.
    QJsonValue ttlOrNull() const { return hasTtl ? ttlMs : QJsonValue(); }
    // Each as a person reads it: absent, null, "text", 12, {...} (PageRecord::describeValue).
    QString ttlText() const;
    QString scopeText() const;
    // Into json as ttlMs, ttlMsPresent, cacheScope and cacheScopePresent (a value null when absent).
    void writeTo(QJsonObject &json) const;

    friend bool operator==(const CacheHints &, const CacheHints &) = default;
};

// A JSON value with storage of its own (see CacheHints::detached()).
QJsonValue detachedJson(const QJsonValue &value);

} // namespace folio
