// The snapshot format (models/snapshot.h, docs/snapshot-format.md): what is written reads back the
// same and writes the same bytes again; the same snapshot always gives the same bytes; a damaged,
// oversized, foreign or newer file is refused with a message that says which; no secret reaches
// the file.

#include "snapshot.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

Snapshot sample()
{
    Snapshot s;
    s.revision = QStringLiteral("2026-07-28");
    s.transport = QStringLiteral("stdio");
    s.serverInfo = {{QStringLiteral("name"), QStringLiteral("demo")},
                    {QStringLiteral("version"), QStringLiteral("1.0")}};
    s.capabilities = {{QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), true}}}};
    s.instructions = QStringLiteral("Walk the lists.\nTwo lines.");
    s.takenAtMs = 1796601600123;
    s.takenFrom = QStringLiteral("folio-demo-server --scenario tour");
    s.findings = {QJsonObject{{QStringLiteral("id"), QStringLiteral("cache-hints-missing")}}};

    Snapshot::List tools;
    tools.id = QStringLiteral("tools");
    tools.complete = true;
    Snapshot::Page first;
    first.hasNextCursor = true;
    first.nextCursor = QStringLiteral("b2Zmc2V0PTI=");
    first.hints.hasTtl = true;
    first.hints.ttlMs = 60000;
    first.hints.hasScope = true;
    first.hints.cacheScope = QStringLiteral("public");
    first.items = {QJsonObject{{QStringLiteral("name"), QStringLiteral("zeta")}, {QStringLiteral("a"), 1}},
                   QJsonObject{{QStringLiteral("name"), QStringLiteral("alpha")}}};
    Snapshot::Page last;
    last.cursor = QStringLiteral("b2Zmc2V0PTI=");
    last.hasNextCursor = true; // null: present, and not a string
    last.hints.hasTtl = true;
    last.hints.ttlMs = QStringLiteral("soon"); // as sent, even of the wrong type
    last.items = {QJsonObject{{QStringLiteral("name"), QStringLiteral("omega")}}};
    tools.pages = {first, last};
    tools.findings = {
        QJsonObject{{QStringLiteral("id"), QStringLiteral("ttl-invalid")}, {QStringLiteral("page"), 2}}};

    Snapshot::List users;
    users.id = QStringLiteral("tool:list_users");
    users.arguments = {{QStringLiteral("team"), QStringLiteral("core")}};
    users.complete = false;
    users.stopReason = QStringLiteral("a cursor repeated");
    Snapshot::Page failed;
    failed.cursor = QString(); // "" sent: kept
    failed.error = {{QStringLiteral("kind"), QStringLiteral("rpc")},
                    {QStringLiteral("code"), -32602},
                    {QStringLiteral("message"), QStringLiteral("Invalid cursor")}};
    users.pages = {failed};

    Snapshot::List prompts;
    prompts.id = QStringLiteral("prompts");
    prompts.skipped = QStringLiteral("the server does not advertise the prompts capability");
    s.lists = {tools, users, prompts};
    return s;
}

QByteArray withVersion(const QByteArray &file, const QJsonValue &version)
{
    QJsonObject o = QJsonDocument::fromJson(file).object();
    o.insert(QStringLiteral("version"), version);
    return QJsonDocument(o).toJson();
}

} // namespace

class TestSnapshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        const Snapshot s = sample();
        const QByteArray file = s.toJson();
        QString error;
        const std::optional<Snapshot> read = Snapshot::fromJson(file, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->revision, s.revision);
        QCOMPARE(read->transport, s.transport);
        QCOMPARE(read->serverInfo, s.serverInfo);
        QCOMPARE(read->capabilities, s.capabilities);
        QCOMPARE(read->instructions, s.instructions);
        QCOMPARE(read->takenAtMs, s.takenAtMs);
        QCOMPARE(read->takenFrom, s.takenFrom);
        QCOMPARE(read->findings, s.findings);
        QCOMPARE(read->lists.size(), s.lists.size());
        for (qsizetype i = 0; i < s.lists.size(); ++i) {
            const Snapshot::List &a = s.lists.at(i);
            const Snapshot::List &b = read->lists.at(i);
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.arguments, a.arguments);
            QCOMPARE(b.skipped, a.skipped);
            QCOMPARE(b.complete, a.complete);
            QCOMPARE(b.stopReason, a.stopReason);
            QCOMPARE(b.findings, a.findings);
            QCOMPARE(b.pages.size(), a.pages.size());
            for (qsizetype j = 0; j < a.pages.size(); ++j) {
                QCOMPARE(b.pages.at(j).cursor, a.pages.at(j).cursor);
                QCOMPARE(b.pages.at(j).hasNextCursor, a.pages.at(j).hasNextCursor);
                QCOMPARE(b.pages.at(j).nextCursor, a.pages.at(j).nextCursor);
                QCOMPARE(b.pages.at(j).hints, a.pages.at(j).hints);
                QCOMPARE(b.pages.at(j).items, a.pages.at(j).items);
                QCOMPARE(b.pages.at(j).error, a.pages.at(j).error);
            }
        }
        // An absent cursor stays absent, "" stays "", an absent nextCursor is not null.
        QVERIFY(!read->lists.at(0).pages.at(0).cursor);
        QCOMPARE(read->lists.at(1).pages.at(0).cursor, std::optional<QString>(QString()));
        QVERIFY(!read->lists.at(1).pages.at(0).hasNextCursor);
        QVERIFY(read->lists.at(0).pages.at(1).nextCursor.isNull());
        QCOMPARE(read->lists.at(0).itemCount(), 3);
        // Written again: the same bytes.
        QCOMPARE(read->toJson(), file);
    }

    void sameSnapshotSameBytes()
    {
        const QByteArray a = sample().toJson();
        QCOMPARE(sample().toJson(), a);
        QVERIFY(a.endsWith('\n'));
        // Only the documented fields change with the time and the place it was taken.
        Snapshot later = sample();
        later.takenAtMs += 86400000;
        later.takenFrom = QStringLiteral("folio-demo-server (replayed from /tmp/x.folio)");
        QJsonObject x = QJsonDocument::fromJson(a).object();
        QJsonObject y = QJsonDocument::fromJson(later.toJson()).object();
        QVERIFY(x != y);
        for (const QString &field : Snapshot::varyingFields()) {
            x.remove(field);
            y.remove(field);
        }
        QCOMPARE(x, y);
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("message");
        const QByteArray good = sample().toJson();
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not JSON");
        QTest::newRow("cut short") << good.left(good.size() / 2) << QStringLiteral("not JSON");
        QTest::newRow("not an object") << QByteArray("[1,2]") << QStringLiteral("not a Folio snapshot");
        QTest::newRow("a session file") << QByteArray("{\"format\":\"folio-session\",\"version\":1}")
                                        << QStringLiteral("not a Folio snapshot");
        QTest::newRow("newer") << withVersion(good, 2) << QStringLiteral("from a newer Folio");
        QTest::newRow("no version") << withVersion(good, QJsonValue())
                                    << QStringLiteral("no valid \"version\"");
        QTest::newRow("version 1.5") << withVersion(good, 1.5) << QStringLiteral("no valid \"version\"");
        QJsonObject o = QJsonDocument::fromJson(good).object();
        QJsonArray lists = o.value(QStringLiteral("lists")).toArray();
        QJsonObject list = lists.at(0).toObject();
        QJsonArray pages = list.value(QStringLiteral("pages")).toArray();
        QJsonObject page = pages.at(0).toObject();
        page.insert(QStringLiteral("items"), QStringLiteral("three"));
        pages.replace(0, page);
        list.insert(QStringLiteral("pages"), pages);
        lists.replace(0, list);
        o.insert(QStringLiteral("lists"), lists);
        QTest::newRow("items not an array")
            << QJsonDocument(o).toJson()
            << QStringLiteral("lists[0].pages[0].items is missing or not an array");
        o.insert(QStringLiteral("lists"), QJsonArray{QJsonObject{{QStringLiteral("complete"), true}}});
        QTest::newRow("a list without id")
            << QJsonDocument(o).toJson() << QStringLiteral("lists[0] has no \"id\"");
        o.remove(QStringLiteral("server"));
        QTest::newRow("no server") << QJsonDocument(o).toJson() << QStringLiteral("\"server\" is missing");
    }
    void refused()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!Snapshot::fromJson(file, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void oversizedRefusedUnread()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("big.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(Snapshot::MaxFileBytes + 1)); // sparse: nothing to read
        f.close();
        QString error;
        QVERIFY(!Snapshot::load(f.fileName(), &error));
        QVERIFY2(error.contains(QStringLiteral("is over the 512 MiB a snapshot may be")), qPrintable(error));
        QVERIFY(!Snapshot::fromJson(QByteArray(Snapshot::MaxFileBytes + 1, ' '), &error));
        QVERIFY2(error.contains(QStringLiteral("is over")), qPrintable(error));
    }

    void savedAndLoaded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        QString error;
        QVERIFY2(sample().save(path, {}, &error), qPrintable(error));
        const std::optional<Snapshot> read = Snapshot::load(path, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->toJson(), sample().toJson());
        QVERIFY(!Snapshot::load(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(!error.isEmpty());
    }

    // A secret the server echoed (a header value, an environment value it was given) and a
    // credential by its shape never reach the file.
    void noSecrets()
    {
        const QString headerValue = QStringLiteral("hdr-sekrit-4711");
        const QString envValue = QStringLiteral("env-sekrit-0815");
        Snapshot s = sample();
        s.instructions = QStringLiteral("Use the key %1.").arg(envValue);
        s.serverInfo.insert(QStringLiteral("echo"), QStringLiteral("Bearer %1").arg(headerValue));
        s.lists[0].pages[0].items.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("leak")},
                        {QStringLiteral("description"), headerValue},
                        {QStringLiteral("access_token"), QStringLiteral("tok-by-shape-99")}});
        const QByteArray file = s.toJson({headerValue, envValue});
        QVERIFY(!file.contains(headerValue.toUtf8()));
        QVERIFY(!file.contains(envValue.toUtf8()));
        QVERIFY(!file.contains("tok-by-shape-99"));
        QVERIFY(file.contains("[redacted]"));
        QString error;
        QVERIFY2(Snapshot::fromJson(file, &error), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestSnapshot)
#include "tst_snapshot.moc"
