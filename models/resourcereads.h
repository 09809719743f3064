#pragma once

#include "finding.h"
#include "mcperror.h"
#include "pagerecord.h"
#include "resourcesubscription.h"

#include <QAbstractListModel>
#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QPointer>

namespace folio {

class Invocation;
class McpClient;
class TtlClock;

// One item of a resources/read result's contents, as the views and the command line show it.
struct ReadContent
{
    enum class Kind { Text, Blob, Unknown };

    Kind kind = Kind::Unknown;
    QString uri;
    QString mimeType;      // as sent; empty when absent
    QString text;          // Text
    QByteArray data;       // Blob: the decoded bytes
    bool blobValid = true; // Blob: the base64 decoded cleanly
    QJsonObject raw;       // the item exactly as received

    // Every item of result.contents, in order; an item that is neither text nor blob is Unknown.
    static QList<ReadContent> fromResult(const QJsonObject &result);
    // "image/png · 12.4 KiB" (what a blob is when it is not shown).
    QString summary() const;
    bool isImage() const { return kind == Kind::Blob && mimeType.startsWith(QLatin1String("image/")); }
};

// Everything known about one resource's latest read, as received: its hints exactly as sent (an
// absent ttlMs stays absent; an invalid one stays what it was), the effective TTL next to them,
// counting down on the same TtlClock as list pages and in the same states (PageRecord::State:
// Loading, Fresh, Stale, Expired, Refetching for a re-read, Failed).
struct ReadRecord
{
    using State = PageRecord::State;
    using Scope = PageRecord::Scope;

    quint64 serial = 0; // the TTL clock's key
    QString uri;
    QString uriTemplate; // the template it was filled in from, when it was
    int answers = 0;     // answers read so far (a re-read adds one)

    qint64 sentAtMs = 0;        // wall clock
    qint64 receivedAtMs = 0;    // wall clock
    qint64 receivedMonoMs = -1; // on the TTL clock
    qint64 latencyMs = -1;      // from the first send to the final answer
    int rounds = 0;             // requests it took (2026 multi-round-trip: more than 1)
    bool cacheable = false;     // one round: the spec allows it to be cached

    bool legacyEra = false;     // ≤ 2025-11-25: no hints by design, TTL 0, no findings
    bool hintsExpected = false; // a 2026-07-28 complete result: ttlMs and cacheScope are MUST
    CacheHints hints;           // as received, kept with storage of their own
    qint64 effectiveTtlMs = 0;  // counts down from receivedMonoMs when > 0
    Scope scope = Scope::NotApplicable;

    QJsonObject result; // the last answer's result, exactly as received
    QByteArray raw;     // its response's bytes

    State state = State::Loading;
    McpError error;          // the last request's, when it failed (a failed re-read keeps the contents)
    QList<Finding> findings; // about the last answer's hints
    QString staleReason;     // why it went stale before its TTL ran out (resources/updated)
    bool rereadOnExpiry = false;
    // Whether the server tells when it changes (ResourceReads::setSubscribes()).
    ResourceSubscription subscription;

    bool hasContents() const { return answers > 0; }
    QList<ReadContent> contents() const { return ReadContent::fromResult(result); }
    // When it goes stale on the TTL clock; -1 when it does not count down.
    qint64 expiresAtMonoMs() const;
    bool isSettled() const { return state != State::Loading && state != State::Refetching; }
    Finding::Severity worstSeverity(bool *any) const;
    // The hints in one line, exactly as received: "ttlMs 15000 · cacheScope public",
    // "ttlMs -5 · cacheScope \"shared\"", "missing ttlMs · cacheScope public", "no cache hints (legacy)".
    QString hintsLine() const;
    // Why its TTL is not honoured (a retried multi-round-trip request); empty when it is.
    QString notCachedReason() const;
    // The subscription in one line: "subscribed: the server says when it changes",
    // "not subscribed: the server does not offer subscriptions …"; empty when none was asked.
    QString subscriptionLine() const;
    // {uri, uriTemplate?, state, ttlMs, ttlMsPresent, cacheScope, cacheScopePresent, effectiveTtlMs,
    //  cacheable, rounds, latencyMs, error, findings, result}
    QJsonObject toJson() const;
};

// The resources read on one connection, one row per URI (a read's cache key is its uri): read()
// sends resources/read through the client's Invocation, applyAnswer() keeps what came back and
// judges its hints with the list pages' finding ids (cache-hints-missing, ttl-invalid,
// scope-invalid), the TTL clock turns it Expired when its TTL runs out, and a read asked to
// ("Re-read when it expires") is read again then. notifications/resources/updated for its uri
// marks it stale. A re-read replaces the contents and restarts the clock.
class ResourceReads : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Roles {
        UriRole = Qt::UserRole + 1,
        StateRole,     // int(PageRecord::State)
        ExpiresAtRole, // monotonic ms on the TTL clock, -1 when not counting down
        EffectiveTtlRole,
        ScopeRole, // int(PageRecord::Scope)
        LegacyRole,
        SeverityRole, // worst finding severity, -1 when none
        RereadOnExpiryRole,
        SerialRole,
        SubscriptionRole, // int(ResourceSubscription::State)
    };

    // What one answer brought (read() fills it from the Invocation; headless code and tests may
    // give one directly).
    struct ReadAnswer
    {
        QJsonObject result; // empty on error
        QByteArray raw;
        McpError error;
        qint64 sentAtMs = 0;
        qint64 receivedAtMs = 0;
        qint64 latencyMs = -1;
        int rounds = 1;
        bool cacheable = true;
        bool legacyEra = false;
    };

    ResourceReads(McpClient *client, TtlClock *clock, QObject *parent = nullptr);
    ~ResourceReads() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    McpClient *client() const { return m_client; }
    TtlClock *ttlClock() const { return m_clock; }
    const ReadRecord &record(int row) const { return m_reads.at(row); }
    int count() const { return int(m_reads.size()); }
    int rowForUri(const QString &uri) const;
    int rowForSerial(quint64 serial) const;

    // Reads uri: a new row, or the row that has it (read again, as re-read() does). Returns the row.
    int read(const QString &uri, const QString &uriTemplate = {});
    // Reads a row's uri again; false while a read of it is in flight.
    bool reread(int row);
    void setRereadOnExpiry(int row, bool on);
    // Subscribe to each resource once it has been read, where the server offers subscriptions
    // (McpClient::subscribeResource()); off by default, so that a one-off read (folio read) asks
    // nothing more of the server. The window's reads turn it on.
    void setSubscribes(bool on) { m_subscribes = on; }
    bool subscribes() const { return m_subscribes; }
    // Closes a read: its request cancelled, its subscription ended (unsubscribed), its row gone.
    void close(int row);
    // notifications/resources/updated: the read is stale even when its TTL still runs (and read
    // again at once when it is to be re-read on expiry).
    void markUpdated(const QString &uri);

    // Records an answer for row (a Loading or Refetching row): Fresh while its TTL runs, else
    // Stale; Failed for an error (Expired when a re-read failed: the old contents stay).
    void applyAnswer(int row, const ReadAnswer &answer);
    // The findings of every read, in row order.
    QList<Finding> findings() const;
    // A new connection forgets its reads, as it forgets its walks.
    void clear();

    // The answer an Invocation brought, as applyAnswer() takes it.
    static ReadAnswer answerOf(const Invocation *invocation, bool legacyEra);
    // The hints judged as list pages are (docs/findings.md), naming the read of uri.
    static QList<Finding> judgeHints(const ReadRecord &read);

Q_SIGNALS:
    // A read of row was answered or failed (after its dataChanged).
    void readFinished(int row);
    // A read's TTL ran out (it is Expired).
    void expired(int row);
    void findingsChanged();

private:
    void send(int row);
    void handleFinished(quint64 serial);
    void handleExpired(const QList<quint64> &serials);
    void scheduleExpiry(int row);
    void changed(int row);
    void handleSubscriptionChanged(const QString &uri);

    QPointer<McpClient> m_client;
    bool m_subscribes = false;
    TtlClock *m_clock;
    QList<ReadRecord> m_reads;
    QHash<quint64, QPointer<Invocation>> m_inFlight;
};

} // namespace folio
