#include "demoserver.h"

#include "demoexchange.h"
#include "jsontext.h"
#include "toolrun.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace demo {

namespace {

constexpr int missingCapability = -32021;
constexpr int legacyResourceNotFound = -32002;

const QString serverInfoKey = QStringLiteral("io.modelcontextprotocol/serverInfo");

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString listOfMethod(const QString &method)
{
    if (method == QStringLiteral("tools/list"))
        return QStringLiteral("tools");
    if (method == QStringLiteral("prompts/list"))
        return QStringLiteral("prompts");
    if (method == QStringLiteral("resources/list"))
        return QStringLiteral("resources");
    if (method == QStringLiteral("resources/templates/list"))
        return QStringLiteral("templates");
    return {};
}

QJsonObject textResult(const QString &text)
{
    return QJsonObject{
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                           {QStringLiteral("text"), text}}}}};
}

} // namespace

DemoServer::DemoServer(Era era, const Scenario &scenario, quint32 seed, QObject *parent)
    : QObject(parent)
    , m_era(era)
    , m_scenario(scenario)
    , m_catalog(seed)
    , m_pager(m_catalog, scenario)
    , m_listTools(m_catalog, scenario)
    , m_content(m_catalog, scenario, m_inputRequests)
    , m_fixtures(m_inputRequests)
    , m_tasks(*this)
    , m_skills(scenario.skills() == QStringLiteral("tampered"))
    , m_modern(*this)
    , m_legacy(*this)
{
    if (scenario.conformanceFixtures()) {
        m_catalog.addConformanceFixtures();
        // The harness reads a SKILL.md's name and description from resources/list.
        m_pager.setExtraResources(m_skills.listedManifests());
    }
    m_catalog.applyEdits(scenario.itemEdits());
    m_tasks.setNotifier([this](const QJsonObject &task, bool legacy) {
        if (legacy)
            m_legacy.notifyTaskStatus(task);
        else
            m_modern.notifyTask(task);
    });
    for (const QString &list : {QStringLiteral("tools"), QStringLiteral("prompts"),
                                QStringLiteral("resources"), QStringLiteral("templates")}) {
        const ListBehaviour b = scenario.behaviour(list);
        if (!b.is("list-changed") || b.at > 0) // with "at": once, as that page is served (ListPager)
            continue;
        auto timer = new QTimer(this);
        timer->setInterval(int(b.intervalMs));
        connect(timer, &QTimer::timeout, this, [this, list] {
            m_pager.bumpRevision(list);
            notifyListChanged(list);
        });
        timer->start();
    }
}

QJsonObject DemoServer::serverInfo()
{
    return QJsonObject{{QStringLiteral("name"), QStringLiteral("folio-demo-server")},
                       {QStringLiteral("title"), QStringLiteral("Folio demo server")},
                       {QStringLiteral("version"), QStringLiteral("0.1.0")}};
}

QJsonObject DemoServer::capabilities()
{
    const QJsonObject listChanged{{QStringLiteral("listChanged"), true}};
    // subscribe: resources/subscribe (legacy) and listen's resourceSubscriptions (2026).
    const QJsonObject resources{{QStringLiteral("subscribe"), true}, {QStringLiteral("listChanged"), true}};
    return QJsonObject{{QStringLiteral("tools"), listChanged},
                       {QStringLiteral("prompts"), listChanged},
                       {QStringLiteral("resources"), resources},
                       {QStringLiteral("completions"), QJsonObject{}}};
}

QString DemoServer::instructions() const
{
    const QString about = QStringLiteral(
        "Folio's demo server: a team chat (tools, prompts, chat:// resources) whose lists page well or "
        "badly on purpose, as its scenario says. Only update_post changes anything (the post, and its "
        "subscribers hear of it).");
    return m_scenario.caption().isEmpty() ? about : m_scenario.caption() + QLatin1Char('\n') + about;
}

void DemoServer::handleMessage(const QByteArray &body, DemoExchange *exchange, const HeaderMap &headers)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        sendError(exchange, QJsonValue::Null, ParseError,
                  QStringLiteral("Parse error: %1").arg(error.errorString()), 400);
        return;
    }
    if (document.isArray()) {
        sendError(exchange, QJsonValue::Null, InvalidRequest,
                  QStringLiteral("Invalid Request: batches are not supported"), 400);
        return;
    }
    const QJsonObject message = document.object();
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QJsonValue method = message.value(QStringLiteral("method"));
    if (method.isUndefined() &&
        (message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error")))) {
        exchange->accept(); // a response to a request we never send; nothing to do
        return;
    }
    const QJsonValue replyId = id.isString() || id.isDouble() ? id : QJsonValue(QJsonValue::Null);
    if (message.value(QStringLiteral("jsonrpc")).toString() != QStringLiteral("2.0") || !method.isString() ||
        (!id.isUndefined() && !id.isString() && !id.isDouble())) {
        sendError(exchange, replyId, InvalidRequest,
                  QStringLiteral("Invalid Request: need jsonrpc \"2.0\", a string method and a string or "
                                 "number id"),
                  400);
        return;
    }
    const QJsonValue paramsValue = message.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject()) {
        if (id.isUndefined())
            exchange->accept();
        else
            sendError(exchange, id, InvalidParams, QStringLiteral("Invalid params: params must be an object"),
                      400);
        return;
    }
    const QJsonObject params = paramsValue.toObject();
    if (id.isUndefined()) {
        handleNotification(method.toString(), params);
        exchange->accept();
        return;
    }

    const QString name = method.toString();
    if (isModern(name, params, exchange, headers))
        m_modern.handle(id, name, params, exchange, headers);
    else
        m_legacy.handle(id, name, params, exchange, headers);
}

// The era rules of docs/demo-server.md, first match wins.
bool DemoServer::isModern(const QString &method, const QJsonObject &params, DemoExchange *exchange,
                          const HeaderMap &headers) const
{
    if (m_era != Era::Both)
        return m_era == Era::Modern;
    const QByteArray headerVersion = headers.value("mcp-protocol-version");
    if (params.value(QStringLiteral("_meta")).toObject().contains(ModernEra::versionKey()))
        return true;
    if (exchange->isHttp() && !headerVersion.isEmpty() &&
        !LegacyEra::versions().contains(QString::fromLatin1(headerVersion)))
        return true;
    if (method == QStringLiteral("initialize"))
        return false;
    if (method == QStringLiteral("server/discover") || method == QStringLiteral("subscriptions/listen"))
        return true;
    if (exchange->isHttp())
        return !headers.contains("mcp-session-id");
    return !m_legacy.stdioInitialized();
}

void DemoServer::handleNotification(const QString &method, const QJsonObject &params)
{
    if (method == QStringLiteral("notifications/cancelled")) {
        const QJsonValue requestId = params.value(QStringLiteral("requestId"));
        m_modern.cancel(requestId);
        for (const QPointer<ToolRun> &run : std::as_const(m_runs)) {
            if (run && run->requestId() == requestId)
                run->cancel();
        }
    }
    // notifications/initialized and anything else need no action.
}

void DemoServer::dispatch(const QJsonValue &id, const QString &method, const QJsonObject &params, bool modern,
                          DemoExchange *exchange, const QJsonObject &clientCapabilities)
{
    const QString list = listOfMethod(method);
    if (!list.isEmpty()) {
        const PageOutcome outcome = m_pager.page(list, params.value(QStringLiteral("cursor")), modern, now());
        sendOutcome(exchange, id, outcome, modern);
        if (outcome.listChanged)
            notifyListChanged(list);
        return;
    }
    const CallContext context{modern, params, clientCapabilities};
    if (method == QStringLiteral("tools/call")) {
        callTool(id, context, exchange);
        return;
    }
    if (modern ? m_tasks.handle(id, method, context, exchange)
               : m_tasks.handleLegacy(id, method, params, exchange))
        return;
    if (modern) {
        // The skills extension (2026-07-28 only, where it is declared).
        if (const auto answer = m_skills.handle(method, params)) {
            sendAnswer(exchange, id, *answer, context);
            return;
        }
    }
    if (method == QStringLiteral("resources/read")) {
        const QString uri = params.value(QStringLiteral("uri")).toString();
        const auto result = readResource(uri, modern);
        if (!result) {
            sendResourceNotFound(exchange, id, uri, modern);
            return;
        }
        sendResult(exchange, id, *result, modern);
        return;
    }
    if (method == QStringLiteral("prompts/get")) {
        const QString name = params.value(QStringLiteral("name")).toString();
        const auto prompt = m_catalog.prompt(name);
        if (!prompt) {
            sendError(exchange, id, InvalidParams, QStringLiteral("Unknown prompt: %1").arg(name), 200);
            return;
        }
        const QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
        std::optional<Answer> answer;
        if (m_scenario.conformanceFixtures())
            answer = m_fixtures.getPrompt(name, arguments, context);
        sendAnswer(exchange, id, answer ? *answer : m_content.getPrompt(*prompt, arguments), context);
        return;
    }
    if (method == QStringLiteral("completion/complete")) {
        sendAnswer(exchange, id, m_content.complete(params), context);
        return;
    }
    sendError(exchange, id, MethodNotFound, QStringLiteral("Method not found: %1").arg(method),
              modern ? 404 : 200);
}

std::optional<QJsonObject> DemoServer::readResource(const QString &uri, bool modern) const
{
    auto result = m_content.read(uri, modern);
    if (!result)
        result = m_skills.read(uri, modern);
    if (!result && m_scenario.conformanceFixtures())
        result = m_fixtures.read(uri, modern);
    return result;
}

void DemoServer::sendResourceNotFound(DemoExchange *exchange, const QJsonValue &id, const QString &uri,
                                      bool modern)
{
    sendError(exchange, id, modern ? InvalidParams : legacyResourceNotFound,
              QStringLiteral("Resource not found"), 200, QJsonObject{{QStringLiteral("uri"), uri}});
}

void DemoServer::callTool(const QJsonValue &id, const CallContext &context, DemoExchange *exchange)
{
    const QJsonValue name = context.params.value(QStringLiteral("name"));
    const QJsonValue arguments = context.params.value(QStringLiteral("arguments"));
    if (!name.isString() || (!arguments.isUndefined() && !arguments.isObject())) {
        sendError(exchange, id, InvalidParams,
                  QStringLiteral("Invalid params: tools/call needs a string name and an object arguments"),
                  200);
        return;
    }
    const QString toolName = name.toString();
    if (ListTools::isListTool(toolName)) {
        sendOutcome(exchange, id, m_listTools.call(toolName, arguments.toObject(), now()), context.modern);
        return;
    }
    const auto tool = m_catalog.tool(toolName);
    if (!tool) {
        sendError(exchange, id, InvalidParams, QStringLiteral("Unknown tool: %1").arg(toolName), 200);
        return;
    }
    if (!Tasks::support(*tool).isEmpty()) {
        // The tasks extension: a task, or the tool's plain outcome when the client did not ask for one.
        if (const auto answer = m_tasks.callTool(id, toolName, *tool, context, exchange))
            sendAnswer(exchange, id, *answer, context);
        return;
    }
    if (Catalog::isConformanceFixture(toolName)) {
        if (callFixture(id, toolName, context, exchange))
            return;
        if (const auto answer = m_fixtures.callTool(toolName, arguments.toObject(), context)) {
            sendAnswer(exchange, id, *answer, context);
            return;
        }
    }
    if (toolName == QStringLiteral("update_post")) {
        // The one tool that changes something: the post's message, for every client of this process.
        QString changed;
        const Answer answer = m_content.updatePost(arguments.toObject(), &changed);
        sendAnswer(exchange, id, answer, context);
        if (!changed.isEmpty())
            notifyResourceUpdated(changed);
        return;
    }
    if (const auto answer = m_content.callTool(toolName, arguments.toObject(), context)) {
        sendAnswer(exchange, id, *answer, context);
        return;
    }
    sendResult(exchange, id,
               textResult(QStringLiteral("Demo: %1 would run with %2. The demo server changes nothing.")
                              .arg(toolName,
                                   QString::fromUtf8(
                                       QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact)))),
               context.modern);
}

void DemoServer::sendAnswer(DemoExchange *exchange, const QJsonValue &id, const Answer &answer,
                            const CallContext &context)
{
    switch (answer.kind) {
    case Answer::Kind::Result:
        sendResult(exchange, id, answer.result, context.modern);
        break;
    case Answer::Kind::Error:
        sendError(exchange, id, answer.errorCode, answer.errorMessage, answer.httpStatus, answer.errorData);
        break;
    case Answer::Kind::Progress: {
        const QJsonValue token =
            context.params.value(QStringLiteral("_meta"))[QStringLiteral("progressToken")];
        m_runs.removeAll(nullptr);
        m_runs.append(new ToolRun(*this, id, exchange, token, answer, context.modern));
        break;
    }
    }
}

bool DemoServer::callFixture(const QJsonValue &id, const QString &name, const CallContext &context,
                             DemoExchange *exchange)
{
    const QJsonObject &clientCapabilities = context.clientCapabilities;
    if (name == QStringLiteral("test_simple_text")) {
        sendResult(exchange, id, textResult(QStringLiteral("This is a simple text response for testing.")),
                   context.modern);
    } else if (name == QStringLiteral("test_missing_capability")) {
        if (!clientCapabilities.contains(QStringLiteral("sampling"))) {
            sendError(exchange, id, missingCapability,
                      QStringLiteral("Missing required client capability: sampling"), 400,
                      QJsonObject{{QStringLiteral("requiredCapabilities"),
                                   QJsonObject{{QStringLiteral("sampling"), QJsonObject{}}}}});
        } else {
            sendResult(exchange, id, textResult(QStringLiteral("The client declared sampling.")),
                       context.modern);
        }
    } else if (name == QStringLiteral("test_trigger_tool_change")) {
        notifyListChanged(QStringLiteral("tools"));
        sendResult(exchange, id, textResult(QStringLiteral("Announced a tools list change.")),
                   context.modern);
    } else if (name == QStringLiteral("test_trigger_prompt_change")) {
        notifyListChanged(QStringLiteral("prompts"));
        sendResult(exchange, id, textResult(QStringLiteral("Announced a prompts list change.")),
                   context.modern);
    } else if (name == QStringLiteral("test_streaming_elicitation") ||
               name == QStringLiteral("test_logging_tool")) {
        sendResult(exchange, id, textResult(QStringLiteral("Done; nothing was sent besides this result.")),
                   context.modern);
    } else {
        return false;
    }
    return true;
}

void DemoServer::openLegacyStream(DemoExchange *exchange, const HeaderMap &headers)
{
    if (m_era == Era::Modern)
        exchange->refuse(405, "This server speaks 2026-07-28 only: there is no GET stream.\n");
    else
        m_legacy.openStream(exchange, headers);
}

void DemoServer::endLegacySession(DemoExchange *exchange, const HeaderMap &headers)
{
    if (m_era == Era::Modern)
        exchange->refuse(405, "No session to end.\n");
    else
        m_legacy.endSession(exchange, headers);
}

void DemoServer::notifyListChanged(const QString &list)
{
    const QString kind = list == QStringLiteral("templates") ? QStringLiteral("resources") : list;
    const QString method = QStringLiteral("notifications/%1/list_changed").arg(kind);
    m_modern.notifyListChanged(kind, method);
    m_legacy.notifyListChanged(method);
}

void DemoServer::notifyResourceUpdated(const QString &uri)
{
    m_modern.notifyResourceUpdated(uri);
    m_legacy.notifyResourceUpdated(uri);
}

void DemoServer::sendResult(DemoExchange *exchange, const QJsonValue &id, QJsonObject result, bool modern,
                            const QString &itemsKey, const QByteArray &itemsJson)
{
    if (modern) {
        if (!result.contains(QStringLiteral("resultType")))
            result.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
        QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
        meta.insert(serverInfoKey, serverInfo());
        result.insert(QStringLiteral("_meta"), meta);
    }
    if (!itemsKey.isEmpty()) {
        // Splice the serialized items into the serialized result, as its last member.
        QByteArray json = R"({"jsonrpc":"2.0","id":)" +
                          QJsonDocument(QJsonArray{id}).toJson(QJsonDocument::Compact).chopped(1).mid(1) +
                          R"(,"result":)" + QJsonDocument(result).toJson(QJsonDocument::Compact);
        json.chop(1); // the result's closing brace
        if (!result.isEmpty())
            json.append(',');
        JsonText::appendString(json, itemsKey);
        json.append(':').append(itemsJson).append("}}");
        exchange->replyJson(json, 200);
        return;
    }
    exchange->reply(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id},
                                {QStringLiteral("result"), result}},
                    200);
}

void DemoServer::sendError(DemoExchange *exchange, const QJsonValue &id, int code, const QString &message,
                           int httpStatus, const QJsonValue &data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined() && !data.isNull())
        error.insert(QStringLiteral("data"), data);
    exchange->reply(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id},
                                {QStringLiteral("error"), error}},
                    httpStatus);
}

void DemoServer::sendOutcome(DemoExchange *exchange, const QJsonValue &id, const PageOutcome &outcome,
                             bool modern)
{
    if (outcome.kind == PageOutcome::Kind::NoAnswer)
        return; // page-never-answers: on purpose
    const QPointer<DemoExchange> target = exchange;
    auto send = [this, target, id, outcome, modern] {
        if (!target)
            return;
        if (outcome.kind == PageOutcome::Kind::Error)
            sendError(target, id, outcome.errorCode, outcome.errorMessage, 200, outcome.errorData);
        else
            sendResult(target, id, outcome.result, modern, outcome.itemsKey, outcome.itemsJson);
    };
    if (outcome.delayMs > 0)
        QTimer::singleShot(int(outcome.delayMs), this, send);
    else
        send();
}

} // namespace demo
