#include "resourcereads.h"

#include "invocation.h"
#include "mcpclient.h"
#include "ttlclock.h"
#include "walkjudge.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace folio {

QList<ReadContent> ReadContent::fromResult(const QJsonObject &result)
{
    QList<ReadContent> out;
    for (const QJsonValue &v : result.value(QStringLiteral("contents")).toArray()) {
        const QJsonObject o = v.toObject();
        ReadContent c;
        c.raw = o;
        c.uri = o.value(QStringLiteral("uri")).toString();
        c.mimeType = o.value(QStringLiteral("mimeType")).toString();
        if (o.value(QStringLiteral("text")).isString()) {
            c.kind = Kind::Text;
            c.text = o.value(QStringLiteral("text")).toString();
        } else if (o.value(QStringLiteral("blob")).isString()) {
            c.kind = Kind::Blob;
            const auto decoded =
                QByteArray::fromBase64Encoding(o.value(QStringLiteral("blob")).toString().toLatin1(),
                                               QByteArray::AbortOnBase64DecodingErrors);
            c.blobValid = bool(decoded);
            c.data = decoded.decoded;
        }
        out.append(c);
    }
    return out;
}

QString ReadContent::summary() const
{
    const QString mime = mimeType.isEmpty() ? QStringLiteral("no mimeType") : mimeType;
    switch (kind) {
    case Kind::Text:
        return QStringLiteral("%1 · %2 characters").arg(mime, QString::number(text.size()));
    case Kind::Blob:
        return blobValid ? QStringLiteral("%1 · %2").arg(mime, McpError::sizeText(data.size()))
                         : QStringLiteral("%1 · blob is not valid base64").arg(mime);
    case Kind::Unknown:
        break;
    }
    return QStringLiteral("%1 · neither text nor blob").arg(mime);
}

qint64 ReadRecord::expiresAtMonoMs() const
{
    return effectiveTtlMs > 0 && receivedMonoMs >= 0 ? TtlClock::deadlineFor(receivedMonoMs, effectiveTtlMs)
                                                     : -1;
}

Finding::Severity ReadRecord::worstSeverity(bool *any) const
{
    *any = !findings.isEmpty();
    Finding::Severity worst = Finding::Severity::Info;
    for (const Finding &f : findings)
        worst = qMax(worst, f.severity);
    return worst;
}

QString ReadRecord::hintsLine() const
{
    if (legacyEra)
        return QStringLiteral("no cache hints (legacy)");
    const auto part = [](const char *name, bool present, const QJsonValue &value) {
        if (!present)
            return QStringLiteral("missing %1").arg(QLatin1String(name));
        // A valid scope reads as a word, as everywhere; anything else as it was sent.
        const QString shown = value.isString() && (value.toString() == QLatin1String("public") ||
                                                   value.toString() == QLatin1String("private"))
                                  ? value.toString()
                                  : PageRecord::describeValue(true, value);
        return QStringLiteral("%1 %2").arg(QLatin1String(name), shown);
    };
    return part("ttlMs", hints.hasTtl, hints.ttlMs) + QStringLiteral(" · ") +
           part("cacheScope", hints.hasScope, hints.cacheScope);
}

QString ReadRecord::notCachedReason() const
{
    if (!hasContents() || cacheable || legacyEra)
        return {};
    return QStringLiteral("took %1 rounds (input_required): a retried request is never cached, so its ttlMs "
                          "is not honoured")
        .arg(rounds);
}

QString ReadRecord::subscriptionLine() const
{
    using S = ResourceSubscription::State;
    switch (subscription.state) {
    case S::None:
        return {};
    case S::NotOffered:
    case S::Refused:
        return QCoreApplication::translate("folio::ReadRecord", "not subscribed: %1")
            .arg(subscription.detail);
    case S::Pending:
        return QCoreApplication::translate("folio::ReadRecord", "subscribing…");
    case S::Active:
        return QCoreApplication::translate("folio::ReadRecord",
                                           "subscribed: the server says when it changes");
    }
    return {};
}

QJsonObject ReadRecord::toJson() const
{
    const QJsonArray f = Finding::toJson(findings);
    QJsonObject json{{QStringLiteral("uri"), uri},
                     {QStringLiteral("state"), PageRecord::stateName(state)},
                     {QStringLiteral("effectiveTtlMs"), effectiveTtlMs},
                     {QStringLiteral("legacy"), legacyEra},
                     {QStringLiteral("cacheable"), cacheable},
                     {QStringLiteral("rounds"), rounds},
                     {QStringLiteral("latencyMs"), latencyMs},
                     {QStringLiteral("error"), error.isError() ? QJsonValue(error.toJson()) : QJsonValue()},
                     {QStringLiteral("findings"), f},
                     {QStringLiteral("result"), result}};
    hints.writeTo(json);
    if (subscription.state != ResourceSubscription::State::None) {
        QJsonObject sub{{QStringLiteral("state"), ResourceSubscription::stateName(subscription.state)}};
        if (!subscription.detail.isEmpty())
            sub.insert(QStringLiteral("detail"), subscription.detail);
        json.insert(QStringLiteral("subscription"), sub);
    }
    if (!uriTemplate.isEmpty())
        json.insert(QStringLiteral("uriTemplate"), uriTemplate);
    return json;
}

ResourceReads::ResourceReads(McpClient *client, TtlClock *clock, QObject *parent)
    : QAbstractListModel(parent)
    , m_client(client)
    , m_clock(clock)
{
    connect(m_clock, &TtlClock::expired, this, &ResourceReads::handleExpired);
    if (m_client) {
        connect(m_client, &McpClient::resourceUpdated, this, &ResourceReads::markUpdated);
        connect(m_client, &McpClient::resourceSubscriptionChanged, this,
                &ResourceReads::handleSubscriptionChanged);
    }
}

ResourceReads::~ResourceReads()
{
    for (const ReadRecord &r : std::as_const(m_reads))
        m_clock->unschedule(r.serial);
}

int ResourceReads::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_reads.size());
}

QVariant ResourceReads::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReadRecord &r = m_reads.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case UriRole:
        return r.uri;
    case Qt::ToolTipRole: {
        QStringList lines{r.uri};
        if (r.hasContents())
            lines << r.hintsLine();
        if (!r.subscriptionLine().isEmpty())
            lines << r.subscriptionLine();
        return lines.join(QLatin1Char('\n'));
    }
    case StateRole:
        return int(r.state);
    case ExpiresAtRole:
        return r.expiresAtMonoMs();
    case EffectiveTtlRole:
        return r.effectiveTtlMs;
    case ScopeRole:
        return int(r.scope);
    case LegacyRole:
        return r.legacyEra;
    case SeverityRole: {
        bool any = false;
        const Finding::Severity s = r.worstSeverity(&any);
        return any ? int(s) : -1;
    }
    case RereadOnExpiryRole:
        return r.rereadOnExpiry;
    case SerialRole:
        return r.serial;
    case SubscriptionRole:
        return int(r.subscription.state);
    default:
        return {};
    }
}

int ResourceReads::rowForUri(const QString &uri) const
{
    for (int i = 0; i < m_reads.size(); ++i) {
        if (m_reads.at(i).uri == uri)
            return i;
    }
    return -1;
}

int ResourceReads::rowForSerial(quint64 serial) const
{
    for (int i = 0; i < m_reads.size(); ++i) {
        if (m_reads.at(i).serial == serial)
            return i;
    }
    return -1;
}

int ResourceReads::read(const QString &uri, const QString &uriTemplate)
{
    int row = rowForUri(uri);
    if (row >= 0) {
        if (!uriTemplate.isEmpty())
            m_reads[row].uriTemplate = uriTemplate;
        reread(row);
        return row;
    }
    ReadRecord r;
    r.serial = m_clock->allocateKey();
    r.uri = uri;
    r.uriTemplate = uriTemplate;
    row = int(m_reads.size());
    beginInsertRows({}, row, row);
    m_reads.append(r);
    endInsertRows();
    send(row);
    return row;
}

bool ResourceReads::reread(int row)
{
    if (row < 0 || row >= m_reads.size() || m_inFlight.value(m_reads.at(row).serial))
        return false;
    send(row);
    return true;
}

void ResourceReads::send(int row)
{
    ReadRecord &r = m_reads[row];
    r.state = r.hasContents() ? ReadRecord::State::Refetching : ReadRecord::State::Loading;
    changed(row);
    if (!m_client) {
        ReadAnswer a;
        a.error = McpError::make(McpError::Kind::Closed, tr("no connection"));
        applyAnswer(row, a);
        return;
    }
    const quint64 serial = r.serial;
    Invocation *invocation = m_client->read(r.uri, this);
    m_inFlight.insert(serial, invocation);
    connect(invocation, &Invocation::finished, this, [this, serial] { handleFinished(serial); });
    // One that could not even be sent (no connection) may have finished already.
    if (invocation->isFinished())
        handleFinished(serial);
}

void ResourceReads::handleFinished(quint64 serial)
{
    const QPointer<Invocation> invocation = m_inFlight.take(serial);
    if (!invocation)
        return;
    invocation->deleteLater();
    const int row = rowForSerial(serial);
    if (row < 0)
        return;
    applyAnswer(row, answerOf(invocation, m_client && !m_client->isModern()));
}

ResourceReads::ReadAnswer ResourceReads::answerOf(const Invocation *invocation, bool legacyEra)
{
    ReadAnswer a;
    a.result = invocation->result();
    a.raw = invocation->rawResponse();
    a.error = invocation->error();
    a.sentAtMs = invocation->sentAtMs();
    a.receivedAtMs = invocation->receivedAtMs();
    a.latencyMs = invocation->totalMs();
    a.rounds = int(invocation->rounds().size());
    a.cacheable = invocation->isCacheable();
    a.legacyEra = legacyEra;
    return a;
}

void ResourceReads::applyAnswer(int row, const ReadAnswer &a)
{
    ReadRecord &r = m_reads[row];
    r.sentAtMs = a.sentAtMs;
    r.latencyMs = a.latencyMs;
    r.rounds = a.rounds;
    m_clock->unschedule(r.serial);
    const bool hadFindings = !r.findings.isEmpty();
    if (a.error.isError()) {
        // May serve stale while a re-read fails: the contents stay; the read says it is expired.
        r.state = r.hasContents() ? ReadRecord::State::Expired : ReadRecord::State::Failed;
        r.error = a.error;
        r.receivedAtMs = a.receivedAtMs;
        if (!r.hasContents())
            r.raw = a.raw;
        changed(row);
        Q_EMIT readFinished(row);
        return;
    }
    ++r.answers;
    r.error = {};
    r.staleReason.clear();
    r.result = a.result;
    r.raw = a.raw;
    r.receivedAtMs = a.receivedAtMs;
    r.receivedMonoMs = m_clock->nowMs();
    r.cacheable = a.cacheable;
    r.legacyEra = a.legacyEra;
    r.hintsExpected = !a.legacyEra;
    r.hints = CacheHints::of(a.result).detached();
    r.scope = r.hintsExpected ? PageRecord::judgeScope(r.hints.hasScope, r.hints.cacheScope)
                              : ReadRecord::Scope::NotApplicable;
    // Legacy reads carry no hints: TTL 0. A retried (multi-round) read is never cached.
    r.effectiveTtlMs = r.hintsExpected && r.cacheable ? TtlClock::effectiveTtlMs(r.hints.ttlOrNull()) : 0;
    r.state = r.effectiveTtlMs > 0 ? ReadRecord::State::Fresh : ReadRecord::State::Stale;
    r.findings = judgeHints(r);
    scheduleExpiry(row);
    changed(row);
    const bool findingsMoved = hadFindings || !r.findings.isEmpty();
    if (m_subscribes && m_client && r.subscription.state == ResourceSubscription::State::None)
        m_client->subscribeResource(r.uri);
    if (findingsMoved)
        Q_EMIT findingsChanged();
    Q_EMIT readFinished(row);
}

QList<Finding> ResourceReads::judgeHints(const ReadRecord &r)
{
    if (!r.hintsExpected)
        return {};
    QList<Finding> findings = WalkJudge::judgeHints(r.hints, QStringLiteral("The read of %1").arg(r.uri),
                                                    QStringLiteral("in the read of %1").arg(r.uri));
    for (Finding &f : findings)
        f.evidence.insert(QStringLiteral("uri"), r.uri); // the read it is about; a read is no page
    return findings;
}

void ResourceReads::scheduleExpiry(int row)
{
    const ReadRecord &r = m_reads.at(row);
    m_clock->unschedule(r.serial);
    if (r.expiresAtMonoMs() >= 0)
        m_clock->schedule(r.serial, r.expiresAtMonoMs());
}

void ResourceReads::handleExpired(const QList<quint64> &serials)
{
    for (quint64 serial : serials) {
        const int row = rowForSerial(serial);
        if (row < 0 || m_reads.at(row).state != ReadRecord::State::Fresh)
            continue;
        m_reads[row].state = ReadRecord::State::Expired;
        changed(row);
        Q_EMIT expired(row);
        if (m_reads.at(row).rereadOnExpiry)
            reread(row);
    }
}

void ResourceReads::markUpdated(const QString &uri)
{
    const int row = rowForUri(uri);
    if (row < 0 || !m_reads.at(row).isSettled() || !m_reads.at(row).hasContents())
        return;
    ReadRecord &r = m_reads[row];
    m_clock->unschedule(r.serial);
    r.state = ReadRecord::State::Stale;
    r.staleReason = tr("the server says it changed");
    changed(row);
    if (r.rereadOnExpiry)
        reread(row);
}

void ResourceReads::setRereadOnExpiry(int row, bool on)
{
    if (row < 0 || row >= m_reads.size() || m_reads.at(row).rereadOnExpiry == on)
        return;
    m_reads[row].rereadOnExpiry = on;
    changed(row);
    // Asked when it has expired already: that is now.
    if (on && m_reads.at(row).state == ReadRecord::State::Expired)
        reread(row);
}

QList<Finding> ResourceReads::findings() const
{
    QList<Finding> all;
    for (const ReadRecord &r : m_reads)
        all += r.findings;
    return all;
}

void ResourceReads::clear()
{
    for (auto it = m_inFlight.begin(); it != m_inFlight.end(); ++it) {
        if (Invocation *invocation = it.value()) {
            invocation->disconnect(this);
            invocation->cancel();
            invocation->deleteLater();
        }
    }
    m_inFlight.clear();
    const bool hadFindings = !findings().isEmpty();
    beginResetModel();
    for (const ReadRecord &r : std::as_const(m_reads))
        m_clock->unschedule(r.serial);
    m_reads.clear();
    endResetModel();
    if (hadFindings)
        Q_EMIT findingsChanged();
}

void ResourceReads::handleSubscriptionChanged(const QString &uri)
{
    const int row = rowForUri(uri);
    if (row < 0 || !m_client)
        return;
    m_reads[row].subscription = m_client->resourceSubscription(uri);
    changed(row);
}

void ResourceReads::close(int row)
{
    if (row < 0 || row >= m_reads.size())
        return;
    const ReadRecord r = m_reads.at(row);
    if (const QPointer<Invocation> invocation = m_inFlight.take(r.serial)) {
        invocation->disconnect(this);
        invocation->cancel();
        invocation->deleteLater();
    }
    m_clock->unschedule(r.serial);
    beginRemoveRows({}, row, row);
    m_reads.removeAt(row);
    endRemoveRows();
    if (m_client && r.subscription.state != ResourceSubscription::State::None)
        m_client->unsubscribeResource(r.uri);
    if (!r.findings.isEmpty())
        Q_EMIT findingsChanged();
}

void ResourceReads::changed(int row)
{
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i);
}

} // namespace folio
