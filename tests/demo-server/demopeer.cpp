#include "demopeer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

namespace {

QString idKey(const QJsonValue &id)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{id}).toJson(QJsonDocument::Compact));
}

} // namespace

DemoPeer::DemoPeer(Transport transport, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
{
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &DemoPeer::handleStdout);
}

DemoPeer::~DemoPeer()
{
    abortRequests();
    for (const QPointer<QNetworkReply> &stream : std::as_const(m_streams)) {
        if (stream)
            stream->abort();
    }
    if (m_process.state() != QProcess::NotRunning) {
        // stdio servers end on stdin EOF; HTTP servers ignore stdin, so they get SIGTERM.
        if (m_transport == Transport::Stdio)
            m_process.closeWriteChannel();
        else
            m_process.terminate();
        if (!m_process.waitForFinished(2000)) {
            m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
}

bool DemoPeer::start(const QStringList &arguments)
{
    QStringList all = arguments;
    if (m_transport == Transport::Http)
        all << QStringLiteral("--http") << QStringLiteral("0");
    m_process.start(QStringLiteral(FOLIO_DEMO_SERVER), all);
    if (!m_process.waitForStarted(5000))
        return false;
    if (m_transport == Transport::Stdio)
        return true;
    QByteArray stderrText;
    QElapsedTimer timer;
    timer.start();
    while (!stderrText.contains('\n') && timer.elapsed() < 5000) {
        if (!m_process.waitForReadyRead(100) && m_process.state() == QProcess::NotRunning)
            break;
        stderrText += m_process.readAllStandardError();
    }
    const QByteArray prefix = "folio-demo-server listening on ";
    const QByteArray line = stderrText.left(stderrText.indexOf('\n'));
    if (!line.startsWith(prefix)) {
        qWarning("unexpected first stderr line: %s", stderrText.constData());
        return false;
    }
    m_url = QUrl(QString::fromLatin1(line.mid(prefix.size())));
    return m_url.isValid() && m_url.path() == QStringLiteral("/mcp");
}

QJsonObject DemoPeer::meta()
{
    return QJsonObject{
        {QStringLiteral("io.modelcontextprotocol/protocolVersion"), QStringLiteral("2026-07-28")},
        {QStringLiteral("io.modelcontextprotocol/clientCapabilities"), QJsonObject{}},
        {QStringLiteral("io.modelcontextprotocol/clientInfo"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("tst_demoserver")},
                     {QStringLiteral("version"), QStringLiteral("1")}}}};
}

DemoPeer::Headers DemoPeer::modernHeaders(const QString &method, const QJsonObject &params)
{
    Headers headers{{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", method.toUtf8()}};
    if (method == QStringLiteral("tools/call") || method == QStringLiteral("prompts/get"))
        headers.append({"Mcp-Name", params.value(QStringLiteral("name")).toString().toUtf8()});
    else if (method == QStringLiteral("resources/read"))
        headers.append({"Mcp-Name", params.value(QStringLiteral("uri")).toString().toUtf8()});
    else if (method == QStringLiteral("tasks/get") || method == QStringLiteral("tasks/update") ||
             method == QStringLiteral("tasks/cancel"))
        headers.append({"Mcp-Name", params.value(QStringLiteral("taskId")).toString().toUtf8()});
    return headers;
}

PeerReply DemoPeer::call(const QString &method, QJsonObject params, int timeoutMs)
{
    if (!params.contains(QStringLiteral("_meta")))
        params.insert(QStringLiteral("_meta"), meta());
    const QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("id"), ++m_nextId},
                              {QStringLiteral("method"), method},
                              {QStringLiteral("params"), params}};
    return send(message, modernHeaders(method, params), timeoutMs);
}

PeerReply DemoPeer::initialize(const QString &version)
{
    const QJsonObject params{
        {QStringLiteral("protocolVersion"), version},
        {QStringLiteral("capabilities"), QJsonObject{}},
        {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("tst")},
                                                   {QStringLiteral("version"), QStringLiteral("1")}}}};
    const PeerReply reply = send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                             {QStringLiteral("id"), ++m_nextId},
                                             {QStringLiteral("method"), QStringLiteral("initialize")},
                                             {QStringLiteral("params"), params}});
    m_sessionId = reply.sessionId;
    send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
    return reply;
}

PeerReply DemoPeer::legacyCall(const QString &method, const QJsonObject &params, int timeoutMs)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), ++m_nextId},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return send(message, {{"MCP-Protocol-Version", "2025-11-25"}}, timeoutMs);
}

PeerReply DemoPeer::send(const QJsonObject &message, const Headers &headers, int timeoutMs)
{
    return sendRaw(QJsonDocument(message).toJson(QJsonDocument::Compact), message.value(QStringLiteral("id")),
                   headers, timeoutMs);
}

PeerReply DemoPeer::sendRaw(const QByteArray &body, const QJsonValue &id, const Headers &headers,
                            int timeoutMs)
{
    PeerReply reply;
    QElapsedTimer timer;
    timer.start();
    if (m_transport == Transport::Stdio) {
        m_process.write(body + '\n');
        if (id.isUndefined())
            return reply;
        const QString key = idKey(id);
        QSignalSpy spy(this, &DemoPeer::messageArrived);
        while (!m_responses.contains(key) && timer.elapsed() < timeoutMs)
            spy.wait(int(qMax<qint64>(1, timeoutMs - timer.elapsed())));
        reply.elapsedMs = timer.elapsed();
        if (m_responses.contains(key)) {
            reply.answered = true;
            reply.message = m_responses.take(key);
        }
        return reply;
    }

    QNetworkReply *networkReply = m_network.post(postRequest(headers), body);
    QSignalSpy finished(networkReply, &QNetworkReply::finished);
    if (!networkReply->isFinished())
        finished.wait(timeoutMs);
    reply.elapsedMs = timer.elapsed();
    if (!networkReply->isFinished()) {
        networkReply->abort();
        networkReply->deleteLater();
        return reply;
    }
    reply.status = networkReply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply.body = networkReply->readAll();
    reply.contentType = networkReply->rawHeader("Content-Type");
    reply.sessionId = networkReply->rawHeader("Mcp-Session-Id");
    reply.answered = reply.status != 0;
    if (reply.contentType.startsWith("text/event-stream")) {
        // A response stream: notifications first, then the response.
        for (const QJsonObject &message : sseMessages(reply.body)) {
            if (message.value(QStringLiteral("id")) == id && !message.contains(QStringLiteral("method")))
                reply.message = message;
            else
                m_notifications.append(message);
        }
    } else {
        reply.message = QJsonDocument::fromJson(reply.body).object();
    }
    networkReply->deleteLater();
    return reply;
}

QNetworkRequest DemoPeer::postRequest(const Headers &headers) const
{
    QNetworkRequest request(m_url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    return request;
}

QList<QJsonObject> DemoPeer::sseMessages(const QByteArray &body)
{
    QList<QJsonObject> messages;
    for (const QByteArray &event : body.split('\n')) {
        if (event.startsWith("data:"))
            messages.append(QJsonDocument::fromJson(event.mid(5).trimmed()).object());
    }
    return messages;
}

void DemoPeer::sendAsync(const QJsonObject &message, const Headers &headers)
{
    const QByteArray body = QJsonDocument(message).toJson(QJsonDocument::Compact);
    if (m_transport == Transport::Stdio) {
        m_process.write(body + '\n');
        return;
    }
    QNetworkReply *reply = m_network.post(postRequest(headers), body);
    m_requests.append(reply);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] {
        if (reply->rawHeader("Content-Type").startsWith("text/event-stream"))
            readSse(reply);
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        if (!reply->rawHeader("Content-Type").startsWith("text/event-stream")) {
            const QJsonObject message = QJsonDocument::fromJson(reply->readAll()).object();
            if (!message.isEmpty())
                handleStreamMessage(message);
        }
        reply->deleteLater();
    });
}

std::optional<QJsonObject> DemoPeer::waitForResponse(const QJsonValue &id, int timeoutMs)
{
    const QString key = idKey(id);
    QElapsedTimer timer;
    timer.start();
    QSignalSpy spy(this, &DemoPeer::messageArrived);
    while (!m_responses.contains(key) && timer.elapsed() < timeoutMs)
        spy.wait(int(qMax<qint64>(1, timeoutMs - timer.elapsed())));
    if (!m_responses.contains(key))
        return std::nullopt;
    return m_responses.take(key);
}

void DemoPeer::abortRequests()
{
    for (const QPointer<QNetworkReply> &request : std::as_const(m_requests)) {
        if (request)
            request->abort();
    }
    m_requests.clear();
}

void DemoPeer::notify(const QString &method, const QJsonObject &params)
{
    const QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("method"), method},
                              {QStringLiteral("params"), params}};
    send(message, {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", method.toUtf8()}});
}

void DemoPeer::listen(const QJsonObject &filter, int id)
{
    const QJsonObject params{{QStringLiteral("notifications"), filter}, {QStringLiteral("_meta"), meta()}};
    const QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("id"), id},
                              {QStringLiteral("method"), QStringLiteral("subscriptions/listen")},
                              {QStringLiteral("params"), params}};
    const QByteArray body = QJsonDocument(message).toJson(QJsonDocument::Compact);
    if (m_transport == Transport::Stdio) {
        m_process.write(body + '\n');
        return;
    }
    QNetworkRequest request(m_url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    for (const auto &[name, value] : modernHeaders(QStringLiteral("subscriptions/listen"), params))
        request.setRawHeader(name, value);
    QNetworkReply *reply = m_network.post(request, body);
    m_streams.append(reply);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { readSse(reply); });
}

bool DemoPeer::openLegacyStream(int timeoutMs)
{
    if (m_transport == Transport::Stdio)
        return true;
    QNetworkRequest request(m_url);
    request.setRawHeader("Accept", "text/event-stream");
    request.setRawHeader("Mcp-Session-Id", m_sessionId);
    request.setRawHeader("MCP-Protocol-Version", "2025-11-25");
    QNetworkReply *reply = m_network.get(request);
    QSignalSpy headers(reply, &QNetworkReply::metaDataChanged);
    m_streams.append(reply);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { readSse(reply); });
    if (headers.isEmpty())
        headers.wait(timeoutMs);
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
}

bool DemoPeer::waitForNotification(const QString &method, int timeoutMs)
{
    auto has = [&] {
        for (const QJsonObject &n : std::as_const(m_notifications)) {
            if (n.value(QStringLiteral("method")).toString() == method)
                return true;
        }
        return false;
    };
    QElapsedTimer timer;
    timer.start();
    QSignalSpy spy(this, &DemoPeer::messageArrived);
    while (!has() && timer.elapsed() < timeoutMs)
        spy.wait(int(qMax<qint64>(1, timeoutMs - timer.elapsed())));
    return has();
}

void DemoPeer::handleStdout()
{
    m_stdout += m_process.readAllStandardOutput();
    qsizetype newline;
    while ((newline = m_stdout.indexOf('\n')) >= 0) {
        const QByteArray line = m_stdout.left(newline);
        m_stdout.remove(0, newline + 1);
        handleStreamMessage(QJsonDocument::fromJson(line).object());
    }
}

void DemoPeer::readSse(QNetworkReply *reply)
{
    QByteArray &buffer = m_sseBuffers[reply];
    buffer += reply->readAll();
    qsizetype end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        buffer.remove(0, end + 2);
        QByteArray data;
        for (const QByteArray &line : lines) {
            if (line.startsWith("data:"))
                data += line.mid(5).trimmed();
        }
        if (!data.isEmpty())
            handleStreamMessage(QJsonDocument::fromJson(data).object());
    }
}

void DemoPeer::handleStreamMessage(const QJsonObject &message)
{
    if (message.contains(QStringLiteral("id")) && !message.contains(QStringLiteral("method")))
        m_responses.insert(idKey(message.value(QStringLiteral("id"))), message);
    else
        m_notifications.append(message);
    Q_EMIT messageArrived();
}
