#pragma once

#include "answer.h"
#include "demoexchange.h"

#include <QJsonValue>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace demo {

class DemoServer;

// One tool call that takes a while (Answer::Kind::Progress): `steps` steps `stepMs` apart, a
// notifications/progress at the start and after each step when the request carried a
// progressToken (progress 0 ... 100 of 100), then the result. Cancelling it (notifications/cancelled,
// or the client closing the HTTP stream) stops it without an answer, as the spec asks. Deletes itself.
class ToolRun : public QObject
{
    Q_OBJECT

public:
    ToolRun(DemoServer &server, const QJsonValue &id, DemoExchange *exchange, const QJsonValue &progressToken,
            const Answer &answer, bool modern);

    QJsonValue requestId() const { return m_id; }
    void cancel();

private:
    void step();
    void notifyProgress();

    DemoServer &m_server;
    QJsonValue m_id;
    QPointer<DemoExchange> m_exchange;
    QJsonValue m_token;
    Answer m_answer;
    bool m_modern;
    int m_done = 0;
    QTimer m_timer;
};

} // namespace demo
