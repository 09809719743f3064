#include "conformanceclient.h"

#include "applogging.h"
#include "authorizer.h"
#include "clilogging.h"
#include "clioutput.h"
#include "invocation.h"
#include "mcpclient.h"
#include "oauthflow.h"
#include "pagewalker.h"
#include "rpccall.h"
#include "schemaargs.h"
#include "skills.h"
#include "toolcatalog.h"
#include "ttlclock.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <QTimer>
#include <QUrl>

#include <functional>

namespace folio {

namespace {

void say(const QString &line)
{
    printErr(QStringLiteral("folio: ") + line + QLatin1Char('\n'));
}

// Drives Folio's real client through what a scenario needs: list, then call, read and get what was
// listed, one request after another. Which requests a scenario needs is chosen here, by its name;
// how each is made is McpClient's, the same code the window uses.
class ConformanceRun : public QObject
{
public:
    ConformanceRun(const QUrl &url, const QString &scenario, const QJsonObject &context)
        : m_url(url)
        , m_scenario(scenario)
        , m_context(context)
    {
        ServerConfig config = ServerConfig::remote(url);
        config.name = QStringLiteral("conformance");
        config.requestTimeoutMs = 15000;
        m_client.setConfig(config);
        // Elicitations accepted with their schema's defaults (SEP-1034), sampling answered with a
        // fixed text, one root: the harness checks the protocol, not what a person would type.
        m_responder.answerSampling = true;
        m_responder.roots = {
            QJsonObject{{QStringLiteral("uri"), QUrl::fromLocalFile(QDir::tempPath()).toString()},
                        {QStringLiteral("name"), QStringLiteral("temp")}}};
        m_client.setInputResponder(&m_responder);
        // Sign-in as the window does it, but with no browser: the harness's authorization server
        // redirects at once, and that redirect is followed to the loopback listener. The client ID
        // metadata document URL is the one the harness hosts for Folio; pre-registered credentials
        // come in the context.
        OAuthClientSettings settings;
        settings.metadataDocumentUrl = QStringLiteral("https://conformance-test.local/client-metadata.json");
        settings.preRegisteredClientId = context.value(QStringLiteral("client_id")).toString();
        settings.preRegisteredClientSecret = context.value(QStringLiteral("client_secret")).toString();
        // The grants without a person take their credentials from the context, as a user gives
        // them to `folio auth login` (docs/conformance.md).
        const auto text = [&context](const char *key) {
            return context.value(QLatin1String(key)).toString();
        };
        if (!text("private_key_pem").isEmpty()) {
            settings.grant = OAuthGrant::ClientCredentials;
            settings.clientKeyPem = text("private_key_pem").toUtf8();
        } else if (!text("idp_id_token").isEmpty()) {
            settings.grant = OAuthGrant::EnterpriseManaged;
            settings.idToken = text("idp_id_token");
            settings.idpClientId = text("idp_client_id");
            settings.idpTokenEndpoint = QUrl(text("idp_token_endpoint"));
        } else if (!text("valid_jwt").isEmpty()) {
            settings.grant = OAuthGrant::JwtBearer;
            settings.assertion = text("valid_jwt");
        } else if (scenario.startsWith(QLatin1String("auth/client-credentials"))) {
            // A client ID and secret alone are also a pre-registered client of the browser grant
            // (auth/pre-registration): which grant they are for is the user's to say.
            settings.grant = OAuthGrant::ClientCredentials;
        }
        m_authorizer.setClientSettings(settings);
        m_authorizer.setCallbackTimeoutMs(20000);
        m_client.setAuthorizer(&m_authorizer);
        connect(&m_authorizer, &Authorizer::flowFinished, this, [](OAuthFlow *flow) {
            for (const QString &line :
                 describeSteps(flow->steps(), false).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                say(QStringLiteral("auth: ") + line);
        });
        connect(&m_client, &McpClient::connected, this, [this] {
            say(QStringLiteral("connected, revision ") + m_client.protocolVersion());
            plan();
            next();
        });
        connect(&m_client, &McpClient::disconnected, this, [this](const McpError &e) {
            if (e.isError())
                finish(1, QStringLiteral("connection failed: ") + e.describe());
        });
        connect(&m_client, &McpClient::diagnostic, this, [](const QString &line) { say(line); });
    }

    ~ConformanceRun() override
    {
        // Walks unschedule their pages from m_clock as they go: before it.
        qDeleteAll(findChildren<ToolCatalog *>(Qt::FindDirectChildrenOnly));
        qDeleteAll(findChildren<PageWalker *>(Qt::FindDirectChildrenOnly));
    }

    void start() { m_client.connectToServer(); }

private:
    using Step = std::function<void()>;

    void plan()
    {
        if (m_scenario.startsWith(QLatin1String("sep-2640-client-"))) {
            // Skills (SEP-2640): the skills are listed, and nothing of them is read (no-prefetch);
            // the verify scenarios then load the first, as a person's Load does: its files read and
            // checked against the entry, and a file that fails rejects the skill.
            m_steps << [this] {
                listAll(*ListSource::extension(QStringLiteral("skills")), [this] {
                    if (m_scenario.endsWith(QLatin1String("no-prefetch")) || m_listed.isEmpty())
                        return;
                    if (const std::optional<SkillEntry> entry =
                            SkillEntry::fromJson(m_listed.first().toObject()))
                        m_steps.prepend([this, skill = *entry] { loadSkill(skill); });
                });
            };
            return;
        }
        m_steps << [this] { listAll(ListKind::Tools, [this] { planTools(); }); };
        if (m_scenario == QLatin1String("http-standard-headers")) {
            m_steps << [this] {
                listAll(ListKind::Resources, [this] {
                    for (const QJsonValue &r : std::as_const(m_listed))
                        m_steps.prepend([this, uri = r.toObject().value(QStringLiteral("uri")).toString()] {
                            run(m_client.read(uri, this));
                        });
                });
            };
            m_steps << [this] {
                listAll(ListKind::Prompts, [this] {
                    for (const QJsonValue &p : std::as_const(m_listed)) {
                        const QJsonObject prompt = p.toObject();
                        QJsonObject arguments;
                        for (const QJsonValue &a : prompt.value(QStringLiteral("arguments")).toArray()) {
                            if (a.toObject().value(QStringLiteral("required")).toBool())
                                arguments.insert(a.toObject().value(QStringLiteral("name")).toString(),
                                                 QStringLiteral("example"));
                        }
                        m_steps.prepend([this, name = prompt.value(QStringLiteral("name")).toString(),
                                         arguments] { run(m_client.getPrompt(name, arguments, this)); });
                    }
                });
            };
        }
    }

    // What to call once the tools are listed.
    void planTools()
    {
        QHash<QString, QJsonObject> tools;
        for (const QJsonValue &t : std::as_const(m_listed))
            tools.insert(t.toObject().value(QStringLiteral("name")).toString(), t.toObject());
        m_tools = tools;
        QList<Step> calls;
        const QJsonArray given = m_context.value(QStringLiteral("toolCalls")).toArray();
        if (!given.isEmpty()) {
            // The scenario names the calls (and their arguments) it wants.
            for (const QJsonValue &c : given) {
                const QJsonObject call = c.toObject();
                const QString name = call.value(QStringLiteral("name")).toString();
                calls << [this, name, arguments = call.value(QStringLiteral("arguments")).toObject()] {
                    callTool(name, arguments);
                };
            }
        } else {
            for (const QJsonValue &t : std::as_const(m_listed)) {
                const QJsonObject tool = t.toObject();
                const QString name = tool.value(QStringLiteral("name")).toString();
                const QString problem = McpClient::toolHeaderProblem(tool);
                if (!problem.isEmpty()) {
                    say(QStringLiteral("not calling %1: %2").arg(name, problem));
                    continue;
                }
                calls << [this, tool, name] { callTool(name, argumentsFor(tool)); };
            }
        }
        for (auto it = calls.rbegin(); it != calls.rend(); ++it)
            m_steps.prepend(*it);
    }

    // Arguments a tool's schema asks for. A tool that takes a "schema" object is given another
    // listed tool's inputSchema verbatim (the schema round trip of json-schema-2020-12-preservation).
    QJsonObject argumentsFor(const QJsonObject &tool) const
    {
        QJsonObject given;
        if (m_scenario == QLatin1String("tools_call") &&
            tool.value(QStringLiteral("name")).toString() == QLatin1String("add_numbers"))
            given = {{QStringLiteral("a"), 2}, {QStringLiteral("b"), 3}};
        const QJsonObject properties = tool.value(QStringLiteral("inputSchema"))
                                           .toObject()
                                           .value(QStringLiteral("properties"))
                                           .toObject();
        if (properties.value(QStringLiteral("schema")).toObject().value(QStringLiteral("type")) ==
            QLatin1String("object")) {
            for (const QJsonObject &other : m_tools) {
                if (other.value(QStringLiteral("name")) != tool.value(QStringLiteral("name"))) {
                    given.insert(QStringLiteral("schema"), other.value(QStringLiteral("inputSchema")));
                    break;
                }
            }
        }
        return SchemaArgs::fill(tool.value(QStringLiteral("inputSchema")).toObject(), given).arguments;
    }

    void callTool(const QString &name, const QJsonObject &arguments)
    {
        const QJsonObject tool = m_tools.value(name, QJsonObject{{QStringLiteral("name"), name}});
        run(m_client.invokeTool(tool, arguments, this));
    }

    void run(Invocation *invocation)
    {
        connect(invocation, &Invocation::finished, this, [this, invocation] {
            invocation->deleteLater();
            if (invocation->isError()) {
                say(QStringLiteral("%1 failed: %2").arg(invocation->title(), invocation->error().describe()));
                // A JSON-RPC error is the server's answer (a scenario server may implement only
                // tools/list); what fails the run is Folio not getting an answer.
                if (invocation->error().kind != McpError::Kind::Rpc)
                    m_failures++;
            } else {
                say(QStringLiteral("%1: done in %2 round(s)%3")
                        .arg(invocation->title(), QString::number(invocation->rounds().size()),
                             invocation->result().value(QStringLiteral("isError")).toBool()
                                 ? QStringLiteral(" (the tool reported an error)")
                                 : QString()));
            }
            next();
        });
    }

    void loadSkill(const SkillEntry &entry)
    {
        auto *load = new SkillLoad(&m_client, entry, this);
        connect(load, &SkillLoad::finished, this, [this, load] {
            load->deleteLater();
            // A rejected skill is the client doing its job, not a failed request.
            say(load->outcome() == SkillLoad::Outcome::Loaded
                    ? QStringLiteral("skill %1 loaded: every file matches its entry")
                          .arg(load->entry().name())
                    : QStringLiteral("skill %1 rejected: %2").arg(load->entry().name(), load->reason()));
            next();
        });
        load->start();
    }

    // Every item of a list into m_listed, then then(): walked by a PageWalker, as Folio walks every
    // list; the tools through the ToolCatalog, as every command finds them.
    void listAll(ListKind kind, std::function<void()> then)
    {
        if (kind != ListKind::Tools) {
            listAll(ListSource::protocol(kind), std::move(then));
            return;
        }
        auto *catalog = new ToolCatalog(&m_client, &m_clock, this);
        catalog->setPageCap(pageCap);
        connect(catalog, &ToolCatalog::found, this, [this, catalog, then] {
            listed(*catalog->walker(), catalog->tools(), then);
            catalog->deleteLater();
        });
        catalog->find();
    }

    void listAll(const ListSource &source, std::function<void()> then)
    {
        auto *walker = new PageWalker(&m_client, source, &m_clock, this);
        walker->setPageCap(pageCap);
        connect(
            walker, &PageWalker::walkFinished, this,
            [this, walker, then] {
                if (walker->isLoading() || walker->property("listed").toBool())
                    return; // a cancelled page: the walk goes on
                walker->setProperty("listed", true);
                QList<QJsonObject> items;
                for (int row = 0; row < walker->rows()->rowCount(); ++row)
                    items.append(walker->rows()->item(row));
                listed(*walker, items, then);
                walker->deleteLater();
            },
            Qt::QueuedConnection);
        walker->fetchAll();
    }

    void listed(const PageWalker &walker, const QList<QJsonObject> &items, const std::function<void()> &then)
    {
        const QString method = walker.source().requestTitle();
        if (!walker.isComplete() && walker.pagesInWalk() < pageCap) {
            say(QStringLiteral("%1 failed: %2").arg(method, walker.stopReason()));
            m_failures++;
            next();
            return;
        }
        m_listed = {};
        for (const QJsonObject &item : items)
            m_listed.append(item);
        say(QStringLiteral("%1: %2 item(s)").arg(method, QString::number(m_listed.size())));
        then();
        next();
    }

    void next()
    {
        if (m_steps.isEmpty()) {
            finish(m_failures == 0 ? 0 : 1, m_failures == 0
                                                ? QStringLiteral("done")
                                                : QStringLiteral("%1 request(s) failed").arg(m_failures));
            return;
        }
        const Step step = m_steps.takeFirst();
        step();
    }

    void finish(int code, const QString &message)
    {
        if (m_done)
            return;
        m_done = true;
        say(m_scenario + QStringLiteral(": ") + message);
        m_client.disconnectFromServer();
        QTimer::singleShot(100, qApp, [code] { QCoreApplication::exit(code); });
    }

    // Pages as the window walks them, 64 at most (the harness's lists are short).
    static constexpr int pageCap = 64;
    QUrl m_url;
    TtlClock m_clock;
    McpClient m_client;
    DefaultInputResponder m_responder;
    Authorizer m_authorizer{m_url};
    QString m_scenario;
    QJsonObject m_context;
    QList<Step> m_steps;
    QJsonArray m_listed;
    QHash<QString, QJsonObject> m_tools;
    int m_failures = 0;
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
    const QJsonObject context =
        QJsonDocument::fromJson(qEnvironmentVariable("MCP_CONFORMANCE_CONTEXT").toUtf8()).object();
    qCDebug(lcApp).noquote() << "conformance client: scenario" << scenario << "at" << url.toString();
    ConformanceRun run(url, scenario, context);
    QTimer::singleShot(0, &run, &ConformanceRun::start);
    QTimer::singleShot(60000, qApp, [] {
        QTextStream(stderr) << "folio: conformance run timed out" << Qt::endl;
        QCoreApplication::exit(3);
    });
    return QCoreApplication::exec();
}

} // namespace folio
