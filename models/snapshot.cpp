#include "snapshot.h"

#include "mcperror.h"
#include "pagewalker.h"
#include "rowstore.h"
#include "secretmask.h"
#include "trafficexport.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>

namespace folio {

namespace {

const QString kFormat = QStringLiteral("format");
const QString kVersion = QStringLiteral("version");
const QString kTakenAt = QStringLiteral("takenAt");
const QString kTakenFrom = QStringLiteral("takenFrom");
const QString kServer = QStringLiteral("server");
const QString kRevision = QStringLiteral("revision");
const QString kTransport = QStringLiteral("transport");
const QString kServerInfo = QStringLiteral("serverInfo");
const QString kCapabilities = QStringLiteral("capabilities");
const QString kInstructions = QStringLiteral("instructions");
const QString kFindings = QStringLiteral("findings");
const QString kLists = QStringLiteral("lists");
const QString kId = QStringLiteral("id");
const QString kArguments = QStringLiteral("arguments");
const QString kSkipped = QStringLiteral("skipped");
const QString kComplete = QStringLiteral("complete");
const QString kStopReason = QStringLiteral("stopReason");
const QString kItemCount = QStringLiteral("itemCount");
const QString kPages = QStringLiteral("pages");
const QString kCursor = QStringLiteral("cursor");
const QString kNextCursor = QStringLiteral("nextCursor");
const QString kTtlMs = QStringLiteral("ttlMs");
const QString kCacheScope = QStringLiteral("cacheScope");
const QString kItems = QStringLiteral("items");
const QString kError = QStringLiteral("error");

QJsonObject pageJson(const Snapshot::Page &p)
{
    QJsonObject o;
    if (p.cursor)
        o.insert(kCursor, *p.cursor);
    if (p.hasNextCursor)
        o.insert(kNextCursor, p.nextCursor);
    if (p.hints.hasTtl)
        o.insert(kTtlMs, p.hints.ttlMs);
    if (p.hints.hasScope)
        o.insert(kCacheScope, p.hints.cacheScope);
    if (!p.error.isEmpty())
        o.insert(kError, p.error);
    o.insert(kItemCount, p.items.size());
    o.insert(kItems, p.items);
    return o;
}

QJsonObject listJson(const Snapshot::List &l)
{
    QJsonObject o{{kId, l.id}, {kComplete, l.complete}, {kItemCount, l.itemCount()}};
    if (!l.arguments.isEmpty())
        o.insert(kArguments, l.arguments);
    if (!l.skipped.isEmpty())
        o.insert(kSkipped, l.skipped);
    if (!l.stopReason.isEmpty())
        o.insert(kStopReason, l.stopReason);
    QJsonArray pages;
    for (const Snapshot::Page &p : l.pages)
        pages.append(pageJson(p));
    o.insert(kPages, pages);
    o.insert(kFindings, l.findings);
    return o;
}

// The reader's one way to say what is wrong.
struct Reader
{
    QString *error;
    std::nullopt_t fail(const QString &why) const
    {
        if (error)
            *error = why;
        return std::nullopt;
    }
};

QString tooLarge()
{
    return QStringLiteral("the file is over the %1 a snapshot may be")
        .arg(McpError::sizeText(Snapshot::MaxFileBytes));
}

bool isOptionalString(const QJsonObject &o, const QString &key)
{
    return !o.contains(key) || o.value(key).isString();
}

bool isOptionalArray(const QJsonObject &o, const QString &key)
{
    return !o.contains(key) || o.value(key).isArray();
}

bool isOptionalObject(const QJsonObject &o, const QString &key)
{
    return !o.contains(key) || o.value(key).isObject();
}

} // namespace

int Snapshot::List::itemCount() const
{
    int n = 0;
    for (const Page &p : pages)
        n += int(p.items.size());
    return n;
}

Snapshot::List Snapshot::List::fromWalker(const PageWalker &walker)
{
    List l;
    l.id = walker.source().id();
    l.arguments = walker.source().arguments();
    l.complete = walker.isComplete();
    l.stopReason = walker.isComplete() ? QString() : walker.stopReason();
    const RowStore *rows = walker.rows();
    for (int ledgerRow : walker.walkPageRows()) {
        const PageRecord &record = walker.ledger()->page(ledgerRow);
        Page p;
        p.cursor = record.requestCursor;
        p.hasNextCursor = record.next.presence != NextCursor::Presence::Absent;
        if (record.next.presence == NextCursor::Presence::String)
            p.nextCursor = record.next.text;
        else if (record.next.presence == NextCursor::Presence::WrongType)
            p.nextCursor = record.next.raw;
        p.hints = record.hints;
        if (record.error.isError())
            p.error = QJsonObject{{QStringLiteral("kind"), McpError::kindName(record.error.kind)},
                                  {QStringLiteral("code"), record.error.code},
                                  {QStringLiteral("message"), record.error.message}};
        int first = 0, count = 0;
        if (record.isSettled() && record.state != PageRecord::State::Failed &&
            rows->rowsOfPage(ledgerRow, &first, &count)) {
            for (int row = first; row < first + count; ++row)
                p.items.append(RowStore::parse(rows->itemText(row)));
        }
        l.pages.append(p);
    }
    l.findings = Finding::toJson(walker.findings());
    return l;
}

Snapshot::List Snapshot::List::fromAudited(const AuditedList &audited)
{
    List l;
    l.id = audited.id;
    l.arguments = audited.arguments;
    l.skipped = audited.skipped;
    l.findings = Finding::toJson(audited.findings);
    return l;
}

QStringList Snapshot::varyingFields()
{
    return {kTakenAt, kTakenFrom};
}

QByteArray Snapshot::toJson(const QStringList &secrets) const
{
    QJsonObject server{{kRevision, revision},         {kTransport, transport},
                       {kServerInfo, serverInfo},     {kCapabilities, capabilities},
                       {kInstructions, instructions}, {kFindings, findings}};
    QJsonArray listsJson;
    for (const List &l : lists)
        listsJson.append(listJson(l));
    const QJsonObject doc{
        {kFormat, formatName()},
        {kVersion, FormatVersion},
        {kTakenAt, QDateTime::fromMSecsSinceEpoch(takenAtMs, Qt::UTC).toString(Qt::ISODateWithMs)},
        {kTakenFrom, takenFrom},
        {kServer, server},
        {kLists, listsJson}};
    const QJsonValue masked = SecretMask::maskMessage(QJsonValue(doc), secrets);
    return QJsonDocument(masked.toObject()).toJson(QJsonDocument::Indented);
}

std::optional<Snapshot> Snapshot::fromJson(const QByteArray &data, QString *error)
{
    const Reader r{error};
    if (data.size() > MaxFileBytes)
        return r.fail(tooLarge());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return r.fail(QStringLiteral("not JSON: %1 at byte %2")
                          .arg(parseError.errorString(), QString::number(parseError.offset)));
    if (!doc.isObject() || doc.object().value(kFormat).toString() != formatName())
        return r.fail(QStringLiteral("not a Folio snapshot: it has no \"format\": \"%1\"").arg(formatName()));
    const QJsonObject root = doc.object();
    const QJsonValue versionValue = root.value(kVersion);
    const int version = versionValue.isDouble() && versionValue.toDouble() == versionValue.toInt()
                            ? versionValue.toInt()
                            : -1;
    if (version > FormatVersion)
        return r.fail(QStringLiteral("the snapshot is version %1, from a newer Folio (this one reads up to "
                                     "version %2)")
                          .arg(QString::number(version), QString::number(FormatVersion)));
    if (version < 1)
        return r.fail(QStringLiteral("the snapshot has no valid \"version\""));

    Snapshot s;
    const QString takenAt = root.value(kTakenAt).toString();
    const QDateTime at = QDateTime::fromString(takenAt, Qt::ISODateWithMs);
    if (!at.isValid())
        return r.fail(QStringLiteral("\"takenAt\" is not a date and time: %1").arg(takenAt.left(80)));
    s.takenAtMs = at.toMSecsSinceEpoch();
    if (!isOptionalString(root, kTakenFrom))
        return r.fail(QStringLiteral("\"takenFrom\" is not text"));
    s.takenFrom = root.value(kTakenFrom).toString();

    if (!root.value(kServer).isObject())
        return r.fail(QStringLiteral("\"server\" is missing or not an object"));
    const QJsonObject server = root.value(kServer).toObject();
    for (const QString &key : {kRevision, kTransport, kInstructions}) {
        if (!isOptionalString(server, key))
            return r.fail(QStringLiteral("server.%1 is not text").arg(key));
    }
    for (const QString &key : {kServerInfo, kCapabilities}) {
        if (!isOptionalObject(server, key))
            return r.fail(QStringLiteral("server.%1 is not an object").arg(key));
    }
    if (!isOptionalArray(server, kFindings))
        return r.fail(QStringLiteral("server.findings is not an array"));
    s.revision = server.value(kRevision).toString();
    s.transport = server.value(kTransport).toString();
    s.serverInfo = server.value(kServerInfo).toObject();
    s.capabilities = server.value(kCapabilities).toObject();
    s.instructions = server.value(kInstructions).toString();
    s.findings = server.value(kFindings).toArray();

    if (!root.value(kLists).isArray())
        return r.fail(QStringLiteral("\"lists\" is missing or not an array"));
    const QJsonArray lists = root.value(kLists).toArray();
    for (qsizetype i = 0; i < lists.size(); ++i) {
        const QString where = QStringLiteral("lists[%1]").arg(i);
        if (!lists.at(i).isObject())
            return r.fail(QStringLiteral("%1 is not an object").arg(where));
        const QJsonObject lo = lists.at(i).toObject();
        if (!lo.value(kId).isString() || lo.value(kId).toString().isEmpty())
            return r.fail(QStringLiteral("%1 has no \"id\"").arg(where));
        if (!lo.value(kComplete).isBool())
            return r.fail(QStringLiteral("%1.complete is not true or false").arg(where));
        if (!isOptionalString(lo, kSkipped) || !isOptionalString(lo, kStopReason))
            return r.fail(QStringLiteral("%1: skipped and stopReason are text").arg(where));
        if (!isOptionalObject(lo, kArguments))
            return r.fail(QStringLiteral("%1.arguments is not an object").arg(where));
        if (!lo.value(kPages).isArray() || !isOptionalArray(lo, kFindings))
            return r.fail(QStringLiteral("%1: pages and findings are arrays").arg(where));
        List l;
        l.id = lo.value(kId).toString();
        l.complete = lo.value(kComplete).toBool();
        l.skipped = lo.value(kSkipped).toString();
        l.stopReason = lo.value(kStopReason).toString();
        l.arguments = lo.value(kArguments).toObject();
        l.findings = lo.value(kFindings).toArray();
        const QJsonArray pages = lo.value(kPages).toArray();
        for (qsizetype j = 0; j < pages.size(); ++j) {
            const QString at = QStringLiteral("%1.pages[%2]").arg(where).arg(j);
            if (!pages.at(j).isObject())
                return r.fail(QStringLiteral("%1 is not an object").arg(at));
            const QJsonObject po = pages.at(j).toObject();
            if (!po.value(kItems).isArray())
                return r.fail(QStringLiteral("%1.items is missing or not an array").arg(at));
            if (!isOptionalString(po, kCursor))
                return r.fail(QStringLiteral("%1.cursor is not text").arg(at));
            if (!isOptionalObject(po, kError))
                return r.fail(QStringLiteral("%1.error is not an object").arg(at));
            Page p;
            if (po.contains(kCursor))
                p.cursor = po.value(kCursor).toString();
            p.hasNextCursor = po.contains(kNextCursor);
            if (p.hasNextCursor)
                p.nextCursor = po.value(kNextCursor);
            p.hints = CacheHints::of(po).detached();
            p.error = po.value(kError).toObject();
            p.items = po.value(kItems).toArray();
            if (po.contains(kItemCount) && po.value(kItemCount).toInteger(-1) != p.items.size())
                return r.fail(QStringLiteral("%1.itemCount says %2, its items are %3")
                                  .arg(at, QString::number(po.value(kItemCount).toInteger(-1)),
                                       QString::number(p.items.size())));
            l.pages.append(p);
        }
        s.lists.append(l);
    }
    return s;
}

bool Snapshot::save(const QString &path, const QStringList &secrets, QString *error) const
{
    return TrafficExport::writeFile(path, toJson(secrets), error);
}

std::optional<Snapshot> Snapshot::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = file.errorString();
        return std::nullopt;
    }
    if (file.size() > MaxFileBytes) {
        if (error)
            *error = tooLarge();
        return std::nullopt;
    }
    // A device whose size is not known (a pipe) is read up to one byte past the cap.
    return fromJson(file.read(MaxFileBytes + 1), error);
}

} // namespace folio
