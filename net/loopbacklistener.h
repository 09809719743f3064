#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

class QTcpServer;
class QTcpSocket;

namespace folio {

// The one-shot redirect listener of a sign-in (RFC 8252 §7.3): an HTTP server on 127.0.0.1 only,
// on a port the system picks, that takes exactly one GET of its callback path, answers the
// browser with a short page ("you can close this tab") and closes. Anything else it is sent (a
// different path, a POST, a second request) gets a 404 and changes nothing. It also closes on
// close() and when the timeout passes, whichever comes first.
class LoopbackListener : public QObject
{
    Q_OBJECT
public:
    explicit LoopbackListener(QObject *parent = nullptr);
    ~LoopbackListener() override;

    // Starts listening; false (with errorString()) when no port could be had.
    bool listen(int timeoutMs);
    // http://127.0.0.1:PORT/callback
    QUrl redirectUri() const;
    bool isListening() const;
    QString errorString() const { return m_error; }
    void close();

    // What the bytes a client sent so far ask of the listener: not a whole request head yet, one
    // it refuses (with the status it answers), or the callback with its query. More than
    // maxRequestBytes is refused.
    struct Request
    {
        enum class Kind { Incomplete, Refused, Callback };
        Kind kind = Kind::Incomplete;
        int status = 0;  // Refused: 405, 404 or 431
        QUrlQuery query; // Callback
    };
    static constexpr qsizetype maxRequestBytes = 16 * 1024; // a callback URL is far shorter
    static Request readRequest(const QByteArray &received);

Q_SIGNALS:
    // The browser came back: the query of its request (code, state, iss, or error...).
    void callbackReceived(const QUrlQuery &query);
    // The timeout passed with no callback.
    void timedOut();

private:
    void handleConnection();
    void handleData(QTcpSocket *socket);
    void answer(QTcpSocket *socket, int status, const QByteArray &reason, const QByteArray &html);

    QTcpServer *m_server;
    QTimer m_timeout;
    QString m_error;
    bool m_done = false;
};

} // namespace folio
