// The real folio binary against third-party MCP servers from npm (tests/peers, pinned): a server
// built with FastMCP whose list tools page in each style Folio recognises
// (tests/peers/paging-peer.mjs), and the reference servers @modelcontextprotocol/server-filesystem
// and server-memory. Over stdio, over the server's own Streamable HTTP where it has one (FastMCP),
// and over Streamable HTTP through mcp-proxy (the stdio servers put on HTTP the way people deploy
// them; it also serves 2026-07-28, so those rows are a modern-era walk). It checks counts, the
// cursor each page was asked with, the page size sent, the paging style recognised, and that no
// finding is raised that the server did not earn; and that a snapshot of each (server-everything
// too) taken twice is empty in folio diff, and the FastMCP peer's two versions differ as they
// should (issue 32). Every server here listens on 127.0.0.1 only
// (FastMCP's and mcp-proxy's host option), so this runs outside tests/in-netns.
//
// Where Folio gets a real server wrong, the check stays (marked QEXPECT_FAIL with the bug, until fixed).

#include "fixtureprocess.h"
#include "interophelpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>

using interop::ServerProcess;

namespace {

using fixtureprocess::folioBinary;

constexpr char pagingPeer[] = "paging-peer.mjs";
constexpr char filesystemServer[] = "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js";
constexpr char memoryServer[] = "node_modules/@modelcontextprotocol/server-memory/dist/index.js";
constexpr char fastmcp[] = "node_modules/fastmcp/dist/FastMCP.js";
constexpr char everythingServer[] = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
constexpr char mcpProxy[] = "node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs";

constexpr int startTimeoutMs = 20000;
constexpr int folioTimeoutMs = 30000;

// What paging-peer.mjs serves (keep in step with it).
constexpr int recordCount = 23;
constexpr int defaultPageSize = 5;

QString peer(const char *relative)
{
    return interop::peerFile(QString::fromLatin1(relative));
}

// A cursor or token as the peer issues it: base64url, unpadded, of {"l":"<tool>","o":<offset>}.
QString issued(const QString &tool, int offset)
{
    const QByteArray json = QStringLiteral("{\"l\":\"%1\",\"o\":%2}").arg(tool).arg(offset).toUtf8();
    return QString::fromLatin1(json.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString recordId(int index)
{
    return QStringLiteral("rec-%1").arg(index + 1, 2, 10, QLatin1Char('0'));
}

using fixtureprocess::Run;

// Runs folio to its exit (killed after the timeout), with a configuration home of its own.
Run runFolio(const QStringList &arguments, const QString &configHome, const QMap<QString, QString> &env = {})
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome); // no saved servers of a developer's
    environment.remove(QStringLiteral("QT_LOGGING_RULES"));
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        environment.insert(it.key(), it.value());
    return fixtureprocess::folio(arguments, environment, folioTimeoutMs);
}

// A list straight from the server over stdio, by JSON-RPC lines written here (no Folio code), so
// that what Folio reports can be compared with what the server really serves. Follows nextCursor;
// the first request carries startCursor when it is a string.
QJsonArray rawList(const QStringList &command, const QString &method, const QString &key,
                   const QMap<QString, QString> &env, QString *why, const QJsonValue &startCursor = {})
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        environment.insert(it.key(), it.value());
    process.setProcessEnvironment(environment);
    process.start(command.constFirst(), command.mid(1));
    QByteArray buffer;
    const QDeadlineTimer deadline(startTimeoutMs);
    auto send = [&](const QJsonObject &message) {
        process.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    };
    auto answer = [&](int id) -> QJsonObject {
        for (;;) {
            const int newline = buffer.indexOf('\n');
            if (newline >= 0) {
                const QJsonObject m = QJsonDocument::fromJson(buffer.left(newline)).object();
                buffer.remove(0, newline + 1);
                if (m.value(QStringLiteral("id")).toInt(-1) == id)
                    return m;
                continue; // a notification or a log line: not ours
            }
            if (deadline.hasExpired() || process.state() == QProcess::NotRunning)
                return {};
            process.waitForReadyRead(int(qBound(qint64(1), deadline.remainingTime(), qint64(200))));
            buffer += process.readAllStandardOutput();
        }
    };
    send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
          {QStringLiteral("id"), 1},
          {QStringLiteral("method"), QStringLiteral("initialize")},
          {QStringLiteral("params"),
           QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                       {QStringLiteral("capabilities"), QJsonObject()},
                       {QStringLiteral("clientInfo"),
                        QJsonObject{{QStringLiteral("name"), QStringLiteral("raw")},
                                    {QStringLiteral("version"), QStringLiteral("1")}}}}}});
    QJsonArray items;
    if (!answer(1).contains(QStringLiteral("result"))) {
        *why = QStringLiteral("no initialize result from %1").arg(command.join(u' '));
    } else {
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
              {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
        QJsonValue cursor = startCursor;
        for (int id = 2; id < 50; ++id) {
            QJsonObject params;
            if (cursor.isString())
                params[QStringLiteral("cursor")] = cursor;
            send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                  {QStringLiteral("id"), id},
                  {QStringLiteral("method"), method},
                  {QStringLiteral("params"), params}});
            const QJsonObject result = answer(id).value(QStringLiteral("result")).toObject();
            if (!result.value(key).isArray()) {
                *why = QStringLiteral("no %1 result from %2").arg(method, command.join(u' '));
                break;
            }
            for (const QJsonValue &v : result.value(key).toArray())
                items.append(v);
            cursor = result.value(QStringLiteral("nextCursor"));
            if (!cursor.isString())
                break;
        }
    }
    process.closeWriteChannel(); // a stdio server exits when its input ends
    if (!process.waitForFinished(5000)) {
        process.kill();
        process.waitForFinished(5000);
    }
    return items;
}

QStringList names(const QJsonArray &items, const QString &key = QStringLiteral("name"))
{
    QStringList out;
    for (const QJsonValue &v : items)
        out << v.toObject().value(key).toString();
    return out;
}

// Every finding of a list walk as "page:id:severity".
QStringList walkFindings(const QJsonObject &walk)
{
    QStringList out;
    for (const QJsonValue &p : walk.value(QStringLiteral("pages")).toArray()) {
        const QJsonObject page = p.toObject();
        for (const QJsonValue &f : page.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject finding = f.toObject();
            out << QStringLiteral("%1:%2:%3")
                       .arg(page.value(QStringLiteral("page")).toInt())
                       .arg(finding.value(QStringLiteral("id")).toString(),
                            finding.value(QStringLiteral("severity")).toString());
        }
    }
    return out;
}

// Every finding of an audited list as "page:id:severity" (page -1 when it is about no one page).
QStringList auditFindings(const QJsonObject &list)
{
    QStringList out;
    for (const QJsonValue &f : list.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject finding = f.toObject();
        out << QStringLiteral("%1:%2:%3")
                   .arg(finding.value(QStringLiteral("page")).toInt(-1))
                   .arg(finding.value(QStringLiteral("id")).toString(),
                        finding.value(QStringLiteral("severity")).toString());
    }
    return out;
}

QMap<QString, QJsonObject> auditLists(const QJsonObject &audit)
{
    QMap<QString, QJsonObject> lists;
    for (const QJsonValue &v : audit.value(QStringLiteral("lists")).toArray())
        lists.insert(v.toObject().value(QStringLiteral("list")).toString(), v.toObject());
    return lists;
}

// Waits until something accepts connections on 127.0.0.1:port, or the process has exited.
bool waitForListening(quint16 port, const ServerProcess &process, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired() && process.isRunning()) {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, port);
        if (probe.waitForConnected(500)) {
            probe.disconnectFromHost();
            return true;
        }
        // Refused at once: not listening yet. A short back-off, with events served, then again.
        const QDeadlineTimer backOff(50);
        (void)QTest::qWaitFor([&] { return backOff.hasExpired() || !process.isRunning(); }, 1000);
    }
    return false;
}

} // namespace

class tst_RealServers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void cleanupTestCase();

    void pagingWalk_data();
    void pagingWalk();
    void pagingBeyondTheRecognisedStyles_data();
    void pagingBeyondTheRecognisedStyles();
    void pagingAudit_data();
    void pagingAudit();

    void referenceServerLists_data();
    void referenceServerLists();
    void referenceServerAudit_data();
    void referenceServerAudit();

    // folio snapshot of a server twice, then folio diff of the two: nothing changed.
    void snapshotTwiceDiffsEmpty_data();
    void snapshotTwiceDiffsEmpty();
    // The FastMCP peer in its two versions: the diff says what the second changed.
    void pagingPeerVersionsDiffer();

private:
    // The stdio command line of a server ("paging", "filesystem", "memory" or "everything").
    QStringList command(const QString &server) const;
    // rawList of a server, asked once.
    QJsonArray served(const QString &server, const QString &list, QString *why);
    QMap<QString, QString> environment(const QString &server) const;
    // folio's target arguments for a server over a transport ("stdio", "http": the server's own
    // Streamable HTTP, "proxy": mcp-proxy in front of its stdio); starts an HTTP server on first use.
    QStringList target(const QString &server, const QString &transport, QString *why);
    bool startProxy(ServerProcess &process, const QString &server, QString *url, QString *why);
    static void addReferenceRows();

    QTemporaryDir m_configHome;
    QTemporaryDir m_root;   // server-filesystem's one allowed directory
    QTemporaryDir m_memory; // server-memory's MEMORY_FILE_PATH lives here, not in node_modules
    std::map<QString, std::unique_ptr<ServerProcess>> m_servers; // "server/transport"
    QMap<QString, QString> m_urls;
    QHash<QString, QJsonArray> m_served; // "server/list"
    bool m_anyFailed = false;
};

void tst_RealServers::initTestCase()
{
    FOLIO_REQUIRE_PEERS(QString::fromLatin1(pagingPeer), QString::fromLatin1(fastmcp),
                        QString::fromLatin1(filesystemServer), QString::fromLatin1(memoryServer),
                        QString::fromLatin1(everythingServer), QString::fromLatin1(mcpProxy));
    QVERIFY2(QFileInfo(folioBinary).isExecutable(),
             qPrintable(folioBinary + QStringLiteral(" is not built (cmake --build ... --target folio)")));
    QVERIFY(m_configHome.isValid());
    QVERIFY(m_root.isValid());
    QVERIFY(m_memory.isValid());
    // A few files and a folder for server-filesystem to serve.
    const QDir root(m_root.path());
    QVERIFY(root.mkpath(QStringLiteral("notes/2026")));
    for (const QString &name : {QStringLiteral("README.md"), QStringLiteral("notes/todo.txt"),
                                QStringLiteral("notes/2026/january.md")}) {
        QFile f(root.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("some text\n");
    }
}

void tst_RealServers::cleanup()
{
    m_anyFailed = m_anyFailed || QTest::currentTestFailed();
}

void tst_RealServers::cleanupTestCase()
{
    for (auto &[key, server] : m_servers) {
        server->stop();
        if (m_anyFailed) // what the HTTP servers logged, to tell their side of a failure
            qInfo("%s:\n%s", qPrintable(key), qPrintable(server->output().right(3000)));
    }
    m_servers.clear();
}

QStringList tst_RealServers::command(const QString &server) const
{
    if (server == QLatin1String("paging"))
        return {interop::node22(), peer(pagingPeer), QStringLiteral("stdio")};
    if (server == QLatin1String("filesystem"))
        return {interop::node22(), peer(filesystemServer), m_root.path()};
    if (server == QLatin1String("everything"))
        return {interop::node22(), peer(everythingServer), QStringLiteral("stdio")};
    return {interop::node22(), peer(memoryServer)};
}

QJsonArray tst_RealServers::served(const QString &server, const QString &list, QString *why)
{
    const QString key = server + QLatin1Char('/') + list;
    if (!m_served.contains(key)) {
        const QJsonArray items =
            rawList(command(server), list + QStringLiteral("/list"), list, environment(server), why);
        if (!why->isEmpty())
            return {};
        m_served.insert(key, items);
    }
    return m_served.value(key);
}

QMap<QString, QString> tst_RealServers::environment(const QString &server) const
{
    if (server == QLatin1String("memory"))
        return {{QStringLiteral("MEMORY_FILE_PATH"), m_memory.filePath(QStringLiteral("memory.jsonl"))}};
    return {};
}

bool tst_RealServers::startProxy(ServerProcess &process, const QString &server, QString *url, QString *why)
{
    // mcp-proxy takes no port 0 it would tell: pick one; if it was taken meanwhile, the proxy
    // exits and another is tried.
    for (int attempt = 0; attempt < 3; ++attempt) {
        const quint16 port = interop::freeLoopbackPort();
        process.start(interop::node22(),
                      QStringList{peer(mcpProxy), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                                  QStringLiteral("--port"), QString::number(port), QStringLiteral("--server"),
                                  QStringLiteral("stream"), QStringLiteral("--")} +
                          command(server),
                      environment(server), interop::peersDir());
        // Logged once the upstream stdio server is connected, just before the proxy listens.
        const QRegularExpression starting(QStringLiteral("starting server on port %1\\b").arg(port));
        if (process.waitForOutput(starting, startTimeoutMs).hasMatch() &&
            waitForListening(port, process, startTimeoutMs)) {
            *url = QStringLiteral("http://127.0.0.1:%1/mcp").arg(port);
            return true;
        }
        *why = QStringLiteral("mcp-proxy for %1 did not start:\n%2").arg(server, process.output());
        if (process.isRunning())
            return false; // up, but not listening in time: another port would not help
    }
    return false;
}

QStringList tst_RealServers::target(const QString &server, const QString &transport, QString *why)
{
    if (transport == QLatin1String("stdio"))
        return QStringList{QStringLiteral("--")} + command(server);
    const QString key = server + QLatin1Char('/') + transport;
    auto it = m_servers.find(key);
    if (it == m_servers.end() || !it->second->isRunning()) {
        auto process = std::make_unique<ServerProcess>();
        QString url;
        if (transport == QLatin1String("http")) {
            // FastMCP's own Streamable HTTP, bound to 127.0.0.1; the peer prints its URL.
            process->start(interop::node22(), {peer(pagingPeer), QStringLiteral("http"), QStringLiteral("0")},
                           {}, interop::peersDir());
            const QRegularExpressionMatch m = process->waitForOutput(
                QRegularExpression(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+/mcp)")),
                startTimeoutMs);
            if (!m.hasMatch()) {
                *why = QStringLiteral("paging-peer.mjs http did not start:\n") + process->output();
                return {};
            }
            url = m.captured(1);
        } else if (!startProxy(*process, server, &url, why)) {
            return {};
        }
        m_urls.insert(key, url);
        m_servers[key] = std::move(process);
    }
    return {QStringLiteral("--url"), m_urls.value(key)};
}

// --- the FastMCP paging peer --------------------------------------------------------------------

void tst_RealServers::pagingWalk_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<int>("limit"); // 0: none sent (the server's default of 5)
    QTest::addColumn<QString>("revision");
    QTest::addColumn<QString>("idKey");
    QTest::addColumn<QStringList>("cursors");   // what each page after the first was asked with
    QTest::addColumn<QList<int>>("itemCounts"); // per page
    QTest::addColumn<QStringList>("findings");  // "page:id:severity"

    const QList<int> fivePages{5, 5, 5, 5, 3};
    const QStringList transparent{QStringLiteral("1:transparent-paging:info")};
    // What the position walks send after the first page, with a limit of 5 or none.
    const QStringList offsets{QStringLiteral("5"), QStringLiteral("10"), QStringLiteral("15"),
                              QStringLiteral("20")};
    const QStringList pageNumbers{QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4"),
                                  QStringLiteral("5")};
    for (const QString &transport :
         {QStringLiteral("stdio"), QStringLiteral("http"), QStringLiteral("proxy")}) {
        // FastMCP 4 is on the 1.x SDK: 2025-11-25. mcp-proxy serves 2026-07-28 in front of it.
        const QString revision =
            transport == QLatin1String("proxy") ? QStringLiteral("2026-07-28") : QStringLiteral("2025-11-25");
        auto row = [&](const char *name, const QString &tool, int limit, const QString &idKey,
                       const QStringList &cursors, const QList<int> &counts, const QStringList &findings) {
            QTest::addRow("%s_%s", qPrintable(transport), name)
                << transport << tool << limit << revision << idKey << cursors << counts << findings;
        };
        auto issuedBy = [](const QString &tool) {
            QStringList c;
            for (int offset = defaultPageSize; offset < recordCount; offset += defaultPageSize)
                c << issued(tool, offset);
            return c;
        };
        const QString notes = QStringLiteral("list_notes");
        const QString emptyCursor = QStringLiteral("list_notes_empty_cursor");
        const QString logs = QStringLiteral("list_logs");
        const QString id = QStringLiteral("id");
        // Cursor: what the server issued is sent back; a null next_cursor ends the list.
        row("cursor", notes, 5, id, issuedBy(notes), fivePages, {});
        // The cursor to the last page is "": it is sent back like any other, and it is no finding.
        QStringList withEmpty = issuedBy(emptyCursor);
        withEmpty.last() = QString(QLatin1String(""));
        row("cursor_empty_string", emptyCursor, 5, id, withEmpty, fivePages, {});
        // AIP-158 page token: next_page_token "" on the last page ends it.
        row("page_token", logs, 5, QStringLiteral("insertId"), issuedBy(logs), fivePages, {});
        // Offset: a page shorter than the pages before it ends the list (not one shorter than the
        // limit sent: servers cap it).
        row("offset_limit5", QStringLiteral("read_records"), 5, id, offsets, fivePages, transparent);
        // Page number, from the schema's default of 1.
        row("page_limit5", QStringLiteral("list_issues"), 5, id, pageNumbers, fivePages, transparent);
        // Without a limit the same: the short fifth page is the last, no empty page is asked for.
        // (Not over FastMCP's own HTTP: the walk does not depend on the transport, and each session
        // there costs a second, as FastMCP waits that long for client capabilities before it answers
        // initialize.)
        if (transport == QLatin1String("http"))
            continue;
        row("offset_nolimit", QStringLiteral("read_records"), 0, id, offsets, fivePages, transparent);
        row("page_nolimit", QStringLiteral("list_issues"), 0, id, pageNumbers, fivePages, transparent);
    }
}

void tst_RealServers::pagingWalk()
{
    QFETCH(QString, transport);
    QFETCH(QString, tool);
    QFETCH(int, limit);
    QFETCH(QString, revision);
    QFETCH(QString, idKey);
    QFETCH(QStringList, cursors);
    QFETCH(QList<int>, itemCounts);
    QFETCH(QStringList, findings);

    QString why;
    const QStringList to = target(QStringLiteral("paging"), transport, &why);
    QVERIFY2(!to.isEmpty(), qPrintable(why));
    QStringList arguments{QStringLiteral("list"), QStringLiteral("tool:") + tool, QStringLiteral("--all"),
                          QStringLiteral("--format"), QStringLiteral("json")};
    if (limit > 0)
        arguments << QStringLiteral("--limit") << QString::number(limit);
    const Run run = runFolio(arguments + to, m_configHome.path());
    qInfo("folio %s: %lld ms", qPrintable(arguments.join(u' ')), run.elapsedMs);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    const QJsonObject walk = run.json();
    QVERIFY2(!walk.isEmpty(), qPrintable(run.describe()));

    QCOMPARE(walk.value(QStringLiteral("server")).toObject().value(QStringLiteral("revision")).toString(),
             revision);
    QCOMPARE(walk.value(QStringLiteral("complete")).toBool(false), true);
    QVERIFY(walk.value(QStringLiteral("stopReason")).isNull());

    // Every record once, in order.
    const QJsonArray items = walk.value(QStringLiteral("items")).toArray();
    QStringList expectedIds;
    for (int i = 0; i < recordCount; ++i)
        expectedIds << recordId(i);
    QCOMPARE(names(items, idKey), expectedIds);

    // Each page: asked with what the server issued (or the position), the page size sent, no error.
    const QJsonArray pages = walk.value(QStringLiteral("pages")).toArray();
    QStringList sent;
    QList<int> counts;
    for (const QJsonValue &p : pages) {
        const QJsonObject page = p.toObject();
        const QJsonValue cursor = page.value(QStringLiteral("cursor"));
        if (counts.isEmpty())
            QVERIFY2(cursor.isNull(), "the first page is asked for without a cursor or position");
        else
            sent << cursor.toString(QStringLiteral("<not a string>"));
        counts << page.value(QStringLiteral("itemCount")).toInt(-1);
        QVERIFY2(page.value(QStringLiteral("error")).isNull(),
                 QJsonDocument(page).toJson(QJsonDocument::Compact).constData());
        if (limit > 0)
            QCOMPARE(page.value(QStringLiteral("limit")).toInt(-1), limit);
        else
            QVERIFY(page.value(QStringLiteral("limit")).isNull());
    }
    QCOMPARE(sent, cursors);
    QCOMPARE(counts, itemCounts);

    // The paging style shows in the findings: transparent-paging for a position, nothing else.
    QCOMPARE(walkFindings(walk), findings);
}

// Two ways real servers page beyond the plain styles, walked whole: Relay's pageInfo
// (GraphQL APIs and the MCP servers in front of them: `first` + `after`, the next cursor in
// pageInfo.endCursor while pageInfo.hasNextPage), and an offset list whose server caps the page
// size below the limit asked (database servers' row caps, GitHub's per_page <= 100): its full
// page of 10 for a limit of 20 is not the last.
void tst_RealServers::pagingBeyondTheRecognisedStyles_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<int>("limit");
    QTest::addColumn<int>("pages");
    QTest::newRow("relay_after_endCursor") << QStringLiteral("list_projects") << 0 << 5;
    QTest::newRow("offset_limit_above_server_cap") << QStringLiteral("read_records") << 20 << 3;
}

void tst_RealServers::pagingBeyondTheRecognisedStyles()
{
    QFETCH(QString, tool);
    QFETCH(int, limit);
    QFETCH(int, pages);

    QString why;
    const QStringList to = target(QStringLiteral("paging"), QStringLiteral("stdio"), &why);
    QStringList arguments{QStringLiteral("list"), QStringLiteral("tool:") + tool, QStringLiteral("--all"),
                          QStringLiteral("--format"), QStringLiteral("json")};
    if (limit > 0)
        arguments << QStringLiteral("--limit") << QString::number(limit);
    const Run run = runFolio(arguments + to, m_configHome.path());
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    const QJsonObject walk = run.json();
    QVERIFY2(walk.value(QStringLiteral("complete")).toBool(false), qPrintable(run.describe()));
    QCOMPARE(walk.value(QStringLiteral("items")).toArray().size(), recordCount);
    QCOMPARE(walk.value(QStringLiteral("pages")).toArray().size(), pages);
    QStringList said = walkFindings(walk);
    said.removeIf([](const QString &f) { return f.contains(QLatin1String(":transparent-paging:")); });
    QVERIFY2(said.isEmpty(), qPrintable(said.join(u' ')));
}

void tst_RealServers::pagingAudit_data()
{
    QTest::addColumn<QString>("transport");
    QTest::newRow("stdio") << QStringLiteral("stdio");
    QTest::newRow("http") << QStringLiteral("http");
    QTest::newRow("proxy") << QStringLiteral("proxy");
}

void tst_RealServers::pagingAudit()
{
    QFETCH(QString, transport);
    QString why;
    const QStringList to = target(QStringLiteral("paging"), transport, &why);
    QVERIFY2(!to.isEmpty(), qPrintable(why));
    // Two walks of each list, compared (the default, said): the peer's lists do not change.
    const Run run =
        runFolio(QStringList{QStringLiteral("audit"), QStringLiteral("--walks"), QStringLiteral("2"),
                             QStringLiteral("--format"), QStringLiteral("json")} +
                     to,
                 m_configHome.path());
    qInfo("folio audit (%s): %lld ms", qPrintable(transport), run.elapsedMs);
    // Exit 1: the one error is tools/list's, a true one (see below).
    QVERIFY2(run.finished && run.exitCode == 1, qPrintable(run.describe()));
    const QJsonObject audit = run.json();
    const QJsonObject summary = audit.value(QStringLiteral("summary")).toObject();
    QCOMPARE(summary.value(QStringLiteral("errors")).toInt(-1), 1);
    QVERIFY(summary.value(QStringLiteral("aborted")).isNull());
    // (Warnings and infos are checked list by list below, list_projects apart.)

    const QMap<QString, QJsonObject> lists = auditLists(audit);
    // Which tools Folio takes for list tools: every one that pages, and get_record not.
    QStringList listTools;
    for (const QString &name : lists.keys()) {
        if (name.startsWith(QLatin1String("tool:")))
            listTools << name.mid(5);
    }
    QCOMPARE(listTools, (QStringList{QStringLiteral("list_issues"), QStringLiteral("list_logs"),
                                     QStringLiteral("list_notes"), QStringLiteral("list_notes_empty_cursor"),
                                     QStringLiteral("list_projects"), QStringLiteral("list_repo_issues"),
                                     QStringLiteral("read_records")}));
    QCOMPARE(lists.value(QStringLiteral("tools")).value(QStringLiteral("items")).toInt(), 8);

    // tools/list fits one page, so it gets a forged cursor in place of a tampered one, and FastMCP
    // (on the 1.x SDK; mcp-proxy passes the cursor on to it) ignores the cursor and answers the whole
    // list again: invalid-cursor-accepted, and true. The cursor was never issued, the spec says a
    // server SHOULD refuse an invalid cursor with -32602, and the peer's own tools refuse theirs. What
    // the server answers to the forged cursor, asked here without Folio, shows it.
    const QJsonObject toolsList = lists.value(QStringLiteral("tools"));
    QCOMPARE(auditFindings(toolsList), QStringList{QStringLiteral("-1:invalid-cursor-accepted:error")});
    const QJsonObject forged = toolsList.value(QStringLiteral("findings")).toArray().first().toObject();
    const QJsonObject evidence = forged.value(QStringLiteral("evidence")).toObject();
    QCOMPARE(evidence.value(QStringLiteral("probe")).toString(), QStringLiteral("forged-cursor"));
    QCOMPARE(evidence.value(QStringLiteral("itemCount")).toInt(), 8);
    const QJsonArray answered =
        rawList(command(QStringLiteral("paging")), QStringLiteral("tools/list"), QStringLiteral("tools"), {},
                &why, evidence.value(QStringLiteral("cursor")));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QCOMPARE(names(answered), names(served(QStringLiteral("paging"), QStringLiteral("tools"), &why)));

    // list_repo_issues lists nothing without repo and state: the audit filled both from the schema
    // (repo's examples, state's enum), says so, and walked it whole with every probe, as the others.
    const QJsonObject repo = lists.value(QStringLiteral("tool:list_repo_issues"));
    QCOMPARE(repo.value(QStringLiteral("status")).toString(), QStringLiteral("audited"));
    QCOMPARE(repo.value(QStringLiteral("arguments")).toObject(),
             (QJsonObject{{QStringLiteral("repo"), QStringLiteral("octo/demo")},
                          {QStringLiteral("state"), QStringLiteral("open")}}));
    QVERIFY2(
        repo.value(QStringLiteral("notes"))
            .toVariant()
            .toStringList()
            .contains(QStringLiteral(
                "arguments filled from the schema: repo=\"octo/demo\" (examples), state=\"open\" (enum)")),
        QJsonDocument(repo).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(repo.value(QStringLiteral("pages")).toInt(), 5);
    // Two walks of five pages, the tampered cursor, a cursor of another list, and the own cursor
    // with another repo (its only string argument to change): the probes ran.
    QCOMPARE(repo.value(QStringLiteral("requests")).toInt(), 5 + 5 + 1 + 1 + 1);

    // No finding but the paging style's on any other list (the cursor probes' tampered and foreign
    // cursors get isError, as the peer refuses what it did not issue; "" is sent back already).
    const QString relay = QStringLiteral("tool:list_projects");
    for (auto it = lists.cbegin(); it != lists.cend(); ++it) {
        const QJsonObject &list = it.value();
        if (list.value(QStringLiteral("status")).toString() != QLatin1String("audited") ||
            it.key() == relay || it.key() == QLatin1String("tools"))
            continue;
        QStringList expected;
        if (it.key() == QLatin1String("tool:read_records") || it.key() == QLatin1String("tool:list_issues"))
            expected << QStringLiteral("1:transparent-paging:info");
        QVERIFY2(auditFindings(list) == expected,
                 qPrintable(it.key() + QStringLiteral(": ") + auditFindings(list).join(u' ')));
        QVERIFY2(list.value(QStringLiteral("complete")).toBool(false), qPrintable(it.key()));
        if (it.key().startsWith(QLatin1String("tool:")))
            QCOMPARE(list.value(QStringLiteral("items")).toInt(), recordCount);
    }

    // The audit's notes must be true of the list they are on.
    for (const QString &name : {QStringLiteral("tool:read_records"), QStringLiteral("tool:list_issues")}) {
        const QJsonObject list = lists.value(name);
        const QStringList notes = list.value(QStringLiteral("notes")).toVariant().toStringList();
        const bool saysOnePage = notes.join(u'\n').contains(QLatin1String("fits one page"));
        QVERIFY(list.value(QStringLiteral("pages")).toInt() > 1);
        QVERIFY2(!saysOnePage, qPrintable(name + QStringLiteral(": ") + notes.join(QStringLiteral(" | "))));
    }

    // list_projects (Relay-style): see pagingBeyondTheRecognisedStyles.
    const QJsonObject projects = lists.value(relay);
    const bool silentlyShort = projects.value(QStringLiteral("complete")).toBool(false) &&
                               projects.value(QStringLiteral("items")).toInt() < recordCount &&
                               auditFindings(projects).isEmpty();
    QVERIFY(!silentlyShort);
}

// --- the reference servers ----------------------------------------------------------------------

void tst_RealServers::addReferenceRows()
{
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("revision");
    for (const QString &server : {QStringLiteral("filesystem"), QStringLiteral("memory")}) {
        // Both are stdio only; mcp-proxy puts them on Streamable HTTP (2026-07-28 to Folio).
        QTest::addRow("%s_stdio", qPrintable(server))
            << server << QStringLiteral("stdio") << QStringLiteral("2025-11-25");
        QTest::addRow("%s_proxy", qPrintable(server))
            << server << QStringLiteral("proxy") << QStringLiteral("2026-07-28");
    }
}

void tst_RealServers::referenceServerLists_data()
{
    addReferenceRows();
}

void tst_RealServers::referenceServerLists()
{
    QFETCH(QString, server);
    QFETCH(QString, transport);
    QFETCH(QString, revision);

    QStringList lists{QStringLiteral("tools")};
    if (server == QLatin1String("memory"))
        lists << QStringLiteral("resources"); // memory://knowledge-graph
    QString why;
    const QStringList to = target(server, transport, &why);
    QVERIFY2(!to.isEmpty(), qPrintable(why));
    for (const QString &list : lists) {
        const QJsonArray servedItems = served(server, list, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(!servedItems.isEmpty());

        const Run run = runFolio(
            QStringList{QStringLiteral("list"), list, QStringLiteral("--format"), QStringLiteral("json")} +
                to,
            m_configHome.path(), environment(server));
        QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject walk = run.json();
        QCOMPARE(walk.value(QStringLiteral("server")).toObject().value(QStringLiteral("revision")).toString(),
                 revision);
        QVERIFY(walk.value(QStringLiteral("complete")).toBool(false));
        const QString nameKey =
            list == QLatin1String("tools") ? QStringLiteral("name") : QStringLiteral("uri");
        QCOMPARE(names(walk.value(QStringLiteral("items")).toArray(), nameKey), names(servedItems, nameKey));
        // One page, no cursor, and no finding (a 2025-11-25 list has no cache hints to miss; through
        // the proxy the 2026-07-28 page carries them).
        QCOMPARE(walk.value(QStringLiteral("pages")).toArray().size(), 1);
        QVERIFY2(walkFindings(walk).isEmpty(), qPrintable(walkFindings(walk).join(u' ')));
    }
}

void tst_RealServers::referenceServerAudit_data()
{
    addReferenceRows();
    // server-everything too (issue 33: the audit with --walks 2 on each third-party server).
    QTest::addRow("everything_stdio")
        << QStringLiteral("everything") << QStringLiteral("stdio") << QStringLiteral("2025-11-25");
    QTest::addRow("everything_proxy")
        << QStringLiteral("everything") << QStringLiteral("proxy") << QStringLiteral("2026-07-28");
}

void tst_RealServers::referenceServerAudit()
{
    QFETCH(QString, server);
    QFETCH(QString, transport);
    QFETCH(QString, revision);

    QString why;
    const QStringList to = target(server, transport, &why);
    QVERIFY2(!to.isEmpty(), qPrintable(why));
    // Two walks of each list, compared: these servers' lists do not change between walks, so no
    // unstable-* finding (warnings and infos 0 below), which the raw client's two answers confirm.
    const Run run =
        runFolio(QStringList{QStringLiteral("audit"), QStringLiteral("--walks"), QStringLiteral("2"),
                             QStringLiteral("--format"), QStringLiteral("json")} +
                     to,
                 m_configHome.path(), environment(server));
    qInfo("folio audit %s (%s): %lld ms", qPrintable(server), qPrintable(transport), run.elapsedMs);
    // Exit 1: each list fits one page and accepts a forged cursor (below).
    QVERIFY2(run.finished && run.exitCode == 1, qPrintable(run.describe()));
    const QJsonObject audit = run.json();
    QCOMPARE(audit.value(QStringLiteral("server")).toObject().value(QStringLiteral("revision")).toString(),
             revision);
    const QJsonObject summary = audit.value(QStringLiteral("summary")).toObject();
    QCOMPARE(summary.value(QStringLiteral("warnings")).toInt(-1), 0);
    QCOMPARE(summary.value(QStringLiteral("infos")).toInt(-1), 0);

    // Every list of these servers fits one page, and the 1.x SDK they are built on (McpServer) never
    // looks at a list request's cursor: the forged cursor the audit sends in place of a tampered one
    // is answered with the whole list again. That is invalid-cursor-accepted, and true: the cursor
    // was never issued (a one-page list has no valid cursor at all), and the spec says a server
    // SHOULD refuse an invalid cursor with -32602. What each server answers to that cursor, asked
    // here over stdio without Folio (mcp-proxy passes the cursor on to the same server), shows it.
    const QMap<QString, QJsonObject> lists = auditLists(audit);
    const QHash<QString, std::pair<QString, QString>> methods{
        {QStringLiteral("tools"), {QStringLiteral("tools/list"), QStringLiteral("tools")}},
        {QStringLiteral("prompts"), {QStringLiteral("prompts/list"), QStringLiteral("prompts")}},
        {QStringLiteral("resources"), {QStringLiteral("resources/list"), QStringLiteral("resources")}},
        {QStringLiteral("templates"),
         {QStringLiteral("resources/templates/list"), QStringLiteral("resourceTemplates")}}};
    int audited = 0;
    for (auto it = lists.cbegin(); it != lists.cend(); ++it) {
        // None of these servers' tools takes a cursor, a token, an offset or a page: no list tools.
        QVERIFY2(!it.key().startsWith(QLatin1String("tool:")), qPrintable(it.key()));
        const QJsonObject &list = it.value();
        if (list.value(QStringLiteral("status")).toString() != QLatin1String("audited") ||
            it.key() == QLatin1String("server/discover") || it.key() == QLatin1String("tasks")) {
            // server-everything's 2025 tasks/list is audited too, and refuses a forged cursor.
            QVERIFY2(auditFindings(list).isEmpty(),
                     qPrintable(it.key() + QStringLiteral(": ") + auditFindings(list).join(u' ')));
            continue;
        }
        ++audited;
        QVERIFY2(methods.contains(it.key()), qPrintable(it.key()));
        QCOMPARE(list.value(QStringLiteral("pages")).toInt(), 1);
        QVERIFY2(auditFindings(list) == QStringList{QStringLiteral("-1:invalid-cursor-accepted:error")},
                 qPrintable(it.key() + QStringLiteral(": ") + auditFindings(list).join(u' ')));
        const QJsonObject evidence = list.value(QStringLiteral("findings"))
                                         .toArray()
                                         .first()
                                         .toObject()
                                         .value(QStringLiteral("evidence"))
                                         .toObject();
        QCOMPARE(evidence.value(QStringLiteral("probe")).toString(), QStringLiteral("forged-cursor"));
        const auto [method, key] = methods.value(it.key());
        const QJsonArray whole = rawList(command(server), method, key, environment(server), &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QJsonArray answered = rawList(command(server), method, key, environment(server), &why,
                                            evidence.value(QStringLiteral("cursor")));
        QVERIFY2(why.isEmpty(), qPrintable(why)); // a result, not the -32602 it should be
        QCOMPARE(answered, whole);
        // The same list asked again by the raw client: what the second walk compared, unchanged.
        QCOMPARE(rawList(command(server), method, key, environment(server), &why), whole);
        QCOMPARE(evidence.value(QStringLiteral("itemCount")).toInt(-1), int(whole.size()));
    }
    QVERIFY(audited >= 1);
    QCOMPARE(summary.value(QStringLiteral("errors")).toInt(-1), audited);
    const QJsonArray tools = served(server, QStringLiteral("tools"), &why);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QCOMPARE(lists.value(QStringLiteral("tools")).value(QStringLiteral("items")).toInt(-1),
             int(tools.size()));
    QCOMPARE(lists.value(QStringLiteral("tools")).value(QStringLiteral("status")).toString(),
             QStringLiteral("audited"));
}

// --- snapshots and diffs (issue 32) ----------------------------------------------------------------

void tst_RealServers::snapshotTwiceDiffsEmpty_data()
{
    QTest::addColumn<QString>("server");
    for (const char *server : {"paging", "filesystem", "memory", "everything"})
        QTest::newRow(server) << QString::fromLatin1(server);
}

void tst_RealServers::snapshotTwiceDiffsEmpty()
{
    QFETCH(QString, server);
    QTemporaryDir dir;
    QStringList files;
    for (int take = 1; take <= 2; ++take) {
        files.append(dir.filePath(QStringLiteral("take%1.json").arg(take)));
        const Run run = runFolio(QStringList{QStringLiteral("snapshot"), QStringLiteral("-o"), files.last(),
                                             QStringLiteral("--")} +
                                     command(server),
                                 m_configHome.path(), environment(server));
        QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    }
    const Run diff =
        runFolio(QStringList{QStringLiteral("diff"), QStringLiteral("--fail-on"), QStringLiteral("any"),
                             QStringLiteral("--format"), QStringLiteral("json")} +
                     files,
                 m_configHome.path());
    QVERIFY2(diff.finished && diff.exitCode == 0, qPrintable(diff.describe()));
    QCOMPARE(diff.json().value(QStringLiteral("changes")).toArray().size(), 0);
}

void tst_RealServers::pagingPeerVersionsDiffer()
{
    QTemporaryDir dir;
    const QString v1 = dir.filePath(QStringLiteral("v1.json"));
    const Run take =
        runFolio(QStringList{QStringLiteral("snapshot"), QStringLiteral("-o"), v1, QStringLiteral("--")} +
                     command(QStringLiteral("paging")),
                 m_configHome.path());
    QVERIFY2(take.finished && take.exitCode == 0, qPrintable(take.describe()));
    // The second version, live.
    const Run run =
        runFolio(QStringList{QStringLiteral("diff"), QStringLiteral("--format"), QStringLiteral("json"), v1,
                             QStringLiteral("--")} +
                     command(QStringLiteral("paging")),
                 m_configHome.path(), {{QStringLiteral("PAGING_PEER_VERSION"), QStringLiteral("2")}});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe())); // nothing breaking
    QSet<QString> seen;
    for (const QJsonValue &v : run.json().value(QStringLiteral("changes")).toArray()) {
        const QJsonObject c = v.toObject();
        seen.insert(QStringLiteral("%1 %2 %3")
                        .arg(c.value(QStringLiteral("class")).toString(),
                             c.value(QStringLiteral("list")).toString(),
                             c.value(QStringLiteral("item")).isString()
                                 ? c.value(QStringLiteral("item")).toString()
                                 : c.value(QStringLiteral("field")).toString()));
    }
    const QString all = QStringList(seen.cbegin(), seen.cend()).join(QLatin1Char('\n'));
    QVERIFY2(seen.contains(QStringLiteral("text tools name:get_record")), qPrintable(all));
    QVERIFY2(seen.contains(QStringLiteral("paging tool:list_notes pageSize")), qPrintable(all));
    for (const QString &key : seen)
        QVERIFY2(!key.startsWith(QLatin1String("breaking")), qPrintable(all));
}

QTEST_GUILESS_MAIN(tst_RealServers)
#include "tst_realservers.moc"
