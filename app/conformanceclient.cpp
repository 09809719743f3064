#include "conformanceclient.h"

#include "applogging.h"
#include "clilogging.h"
#include "mcpclient.h"
#include "rpccall.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QTextStream>
#include <QTimer>

namespace folio {

namespace {

// Runs the scenario's steps one after another; each step is a request whose failure ends the run.
class ConformanceRun : public QObject
{
public:
    ConformanceRun(const QUrl &url, const QString &scenario)
        : m_scenario(scenario)
    {
        ServerConfig config;
        config.name = QStringLiteral("conformance");
        config.kind = ServerConfig::Kind::Http;
        config.url = url;
        config.requestTimeoutMs = 15000;
        m_client.setConfig(config);
        connect(&m_client, &McpClient::connected, this, &ConformanceRun::listTools);
        connect(&m_client, &McpClient::disconnected, this, [this](const McpError &e) {
            if (e.isError())
                finish(1, QStringLiteral("connection failed: ") + e.describe());
        });
        connect(&m_client, &McpClient::diagnostic, this,
                [](const QString &line) { QTextStream(stderr) << "folio: " << line << Qt::endl; });
    }

    void start() { m_client.connectToServer(); }

private:
    void listTools()
    {
        QTextStream(stderr) << "folio: connected, revision " << m_client.protocolVersion() << Qt::endl;
        RpcCall *call = m_client.listPage(ListKind::Tools, std::nullopt, this);
        connect(call, &RpcCall::finished, this, [this, call] {
            if (call->isError()) {
                finish(1, QStringLiteral("tools/list failed: ") + call->error().describe());
                return;
            }
            const QJsonArray tools = call->result().value(QStringLiteral("tools")).toArray();
            for (const QJsonValue &t : tools) {
                const QString name = t.toObject().value(QStringLiteral("name")).toString();
                if (name == QLatin1String("add_numbers")) {
                    callTool(name, {{QStringLiteral("a"), 2}, {QStringLiteral("b"), 3}});
                    return;
                }
            }
            finish(0, QStringLiteral("listed %1 tools").arg(tools.size()));
        });
    }

    void callTool(const QString &name, const QJsonObject &arguments)
    {
        RpcCall *call = m_client.callTool(name, arguments, this);
        connect(call, &RpcCall::finished, this, [this, call, name] {
            if (call->isError())
                finish(1, QStringLiteral("tools/call %1 failed: %2").arg(name, call->error().describe()));
            else
                finish(0, QStringLiteral("called %1").arg(name));
        });
    }

    void finish(int code, const QString &message)
    {
        if (m_done)
            return;
        m_done = true;
        QTextStream(stderr) << "folio: " << m_scenario << ": " << message << Qt::endl;
        m_client.disconnectFromServer();
        QTimer::singleShot(100, qApp, [code] { QCoreApplication::exit(code); });
    }

    McpClient m_client;
    QString m_scenario;
    bool m_done = false;
};

} // namespace

int runConformanceClient(const QStringList &options)
{
    // The harness gives the URL last; -v may come before it.
    QStringList arguments = options;
    const qsizetype verbose =
        arguments.removeAll(QStringLiteral("-v")) + arguments.removeAll(QStringLiteral("--verbose"));
    if (verbose > 0)
        enableVerboseLogging();
    if (arguments.isEmpty()) {
        QTextStream(stderr) << "usage: folio conformance-client [-v] URL" << Qt::endl;
        return 2;
    }
    const QUrl url(arguments.constLast());
    const QString scenario = qEnvironmentVariable("MCP_CONFORMANCE_SCENARIO", QStringLiteral("(none)"));
    qCDebug(lcApp).noquote() << "conformance client: scenario" << scenario << "at" << url.toString();
    ConformanceRun run(url, scenario);
    QTimer::singleShot(0, &run, &ConformanceRun::start);
    QTimer::singleShot(60000, qApp, [] {
        QTextStream(stderr) << "folio: conformance run timed out" << Qt::endl;
        QCoreApplication::exit(3);
    });
    return QCoreApplication::exec();
}

} // namespace folio
