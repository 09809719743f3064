#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QUrl>

#include <optional>

class QNetworkReply;

// What came back for one request: the JSON-RPC message (if any) and, on HTTP, the status.
struct PeerReply
{
    bool answered = false;
    int status = 0; // HTTP status; 0 on stdio
    QJsonObject message;
    QByteArray body;
    QByteArray contentType;
    QByteArray sessionId;
    qint64 elapsedMs = 0;

    QJsonObject result() const { return message.value(QStringLiteral("result")).toObject(); }
    int errorCode() const { return message.value(QStringLiteral("error"))[QStringLiteral("code")].toInt(); }
    QJsonObject error() const { return message.value(QStringLiteral("error")).toObject(); }
};

// Test-local client for folio-demo-server: raw QProcess on stdio, QNetworkAccessManager on HTTP.
// Deliberately independent of net/ so the server's tests do not depend on the client under test.
class DemoPeer : public QObject
{
    Q_OBJECT

public:
    enum class Transport { Stdio, Http };
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    explicit DemoPeer(Transport transport, QObject *parent = nullptr);
    ~DemoPeer() override;

    bool start(const QStringList &arguments);
    Transport transport() const { return m_transport; }
    QProcess &process() { return m_process; }
    QUrl url() const { return m_url; }

    PeerReply sendRaw(const QByteArray &body, const QJsonValue &id, const Headers &headers = {},
                      int timeoutMs = 5000);
    PeerReply send(const QJsonObject &message, const Headers &headers = {}, int timeoutMs = 5000);
    // A 2026-07-28 request: adds the _meta envelope and, on HTTP, the standard headers.
    PeerReply call(const QString &method, QJsonObject params = {}, int timeoutMs = 5000);
    // A legacy request inside the session initialize() opened.
    PeerReply legacyCall(const QString &method, const QJsonObject &params = {}, int timeoutMs = 5000);
    PeerReply initialize(const QString &version = QStringLiteral("2025-11-25"));

    // Sends a request without waiting for it: its notifications land in notifications(), its
    // response in waitForResponse(). On HTTP the request's stream stays open until it ends or
    // abortRequests() closes it (which is how an HTTP client cancels).
    void sendAsync(const QJsonObject &message, const Headers &headers = {});
    std::optional<QJsonObject> waitForResponse(const QJsonValue &id, int timeoutMs = 5000);
    void abortRequests();
    // A notification (no id): stdio line or HTTP POST (202).
    void notify(const QString &method, const QJsonObject &params);

    // Opens subscriptions/listen (2026) with the given filter; messages land in notifications().
    void listen(const QJsonObject &filter, int id);
    // Opens the legacy GET stream of the session (HTTP) and waits until the server answered it with
    // 200, so that what the server sends next reaches it; on stdio notifications just arrive.
    bool openLegacyStream(int timeoutMs = 5000);
    const QList<QJsonObject> &notifications() const { return m_notifications; }
    // Waits until a notification with this method has arrived.
    bool waitForNotification(const QString &method, int timeoutMs = 5000);

    static QJsonObject meta();
    static Headers modernHeaders(const QString &method, const QJsonObject &params);

Q_SIGNALS:
    void messageArrived();

private:
    void handleStdout();
    void readSse(QNetworkReply *reply);
    // The messages of an SSE body, in order.
    // A POST to the server's endpoint: JSON in, JSON or an event stream out, in the session if any.
    QNetworkRequest postRequest(const Headers &headers) const;
    static QList<QJsonObject> sseMessages(const QByteArray &body);
    void handleStreamMessage(const QJsonObject &message);

    Transport m_transport;
    QProcess m_process;
    QNetworkAccessManager m_network;
    QUrl m_url;
    QByteArray m_stdout;
    QHash<QString, QJsonObject> m_responses; // by id as compact JSON
    QList<QJsonObject> m_notifications;
    QByteArray m_sessionId;
    QList<QPointer<QNetworkReply>> m_streams;
    QList<QPointer<QNetworkReply>> m_requests;
    QHash<QNetworkReply *, QByteArray> m_sseBuffers;
    int m_nextId = 1000;
};
