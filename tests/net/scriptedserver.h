#pragma once

// An HTTP/1.1 server in the test's own process on 127.0.0.1, answering each request with what the
// test's script returns and keeping every request it got: for the sign-in tests that need an
// authorization server (or an identity provider) to answer exactly so, hostile answers included,
// and to see exactly what Folio sent. One request per connection (it answers Connection: close).

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <QUrlQuery>

#include <functional>

struct ScriptedRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased
    QByteArray body;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[n, v] : headers) {
            if (n == name.toLower())
                return v;
        }
        return {};
    }
    bool hasHeader(const QByteArray &name) const
    {
        for (const auto &h : headers) {
            if (h.first == name.toLower())
                return true;
        }
        return false;
    }
    // An application/x-www-form-urlencoded body's value, decoded.
    QString form(const QString &name) const
    {
        QByteArray text = body;
        text.replace('+', ' ');
        return QUrlQuery(QString::fromUtf8(text)).queryItemValue(name, QUrl::FullyDecoded);
    }
    bool hasForm(const QString &name) const { return QUrlQuery(QString::fromUtf8(body)).hasQueryItem(name); }
};

struct ScriptedAnswer
{
    int status = 404;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    static ScriptedAnswer json(int status, const QJsonObject &object,
                               QList<QPair<QByteArray, QByteArray>> headers = {})
    {
        headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        return {status, headers, QJsonDocument(object).toJson(QJsonDocument::Compact)};
    }
};

class ScriptedServer : public QObject
{
public:
    using Script = std::function<ScriptedAnswer(const ScriptedRequest &)>;

    explicit ScriptedServer(QObject *parent = nullptr)
        : QObject(parent)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    void setScript(Script script) { m_script = std::move(script); }
    // "http://127.0.0.1:PORT"
    QString origin() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    const QList<ScriptedRequest> &requests() const { return m_requests; }
    QList<ScriptedRequest> requestsTo(const QString &path) const
    {
        QList<ScriptedRequest> out;
        for (const ScriptedRequest &r : m_requests) {
            if (r.path == path)
                out.append(r);
        }
        return out;
    }

private:
    void serve(QTcpSocket *socket)
    {
        auto *buffer = new QByteArray;
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QObject::destroyed, this, [buffer] { delete buffer; });
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            ScriptedRequest request;
            const QList<QByteArray> lines = buffer->left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            const QUrl target(QString::fromLatin1(first.value(1)));
            request.path = target.path();
            request.query = QUrlQuery(target);
            qsizetype length = 0;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines.at(i).indexOf(':');
                if (colon <= 0)
                    continue;
                const QByteArray name = lines.at(i).left(colon).trimmed().toLower();
                const QByteArray value = lines.at(i).mid(colon + 1).trimmed();
                request.headers.append({name, value});
                if (name == "content-length")
                    length = value.toLongLong();
            }
            if (buffer->size() < end + 4 + length)
                return;
            request.body = buffer->mid(end + 4, length);
            buffer->clear();
            m_requests.append(request);
            const ScriptedAnswer answer = m_script ? m_script(request) : ScriptedAnswer();
            QByteArray out = "HTTP/1.1 " + QByteArray::number(answer.status) + " Scripted\r\n";
            for (const auto &[name, value] : answer.headers)
                out += name + ": " + value + "\r\n";
            out +=
                "Content-Length: " + QByteArray::number(answer.body.size()) + "\r\nConnection: close\r\n\r\n";
            out += answer.body;
            socket->write(out);
            socket->disconnectFromHost();
        });
    }

    QTcpServer m_server;
    Script m_script;
    QList<ScriptedRequest> m_requests;
};
