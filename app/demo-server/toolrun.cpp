#include "toolrun.h"

#include "demoserver.h"

using namespace Qt::StringLiterals;

namespace demo {

ToolRun::ToolRun(DemoServer &server, const QJsonValue &id, DemoExchange *exchange,
                 const QJsonValue &progressToken, const Answer &answer, bool modern)
    : QObject(&server)
    , m_server(server)
    , m_id(id)
    , m_exchange(exchange)
    , m_token(progressToken)
    , m_answer(answer)
    , m_modern(modern)
{
    connect(exchange, &DemoExchange::closed, this, &ToolRun::cancel);
    m_timer.setInterval(answer.stepMs);
    connect(&m_timer, &QTimer::timeout, this, &ToolRun::step);
    notifyProgress();
    m_timer.start();
}

void ToolRun::cancel()
{
    m_timer.stop();
    deleteLater();
}

void ToolRun::step()
{
    ++m_done;
    notifyProgress();
    if (m_done < m_answer.steps)
        return;
    m_timer.stop();
    if (m_exchange)
        m_server.sendResult(m_exchange, m_id, m_answer.result, m_modern);
    deleteLater();
}

void ToolRun::notifyProgress()
{
    if (!m_exchange || !(m_token.isString() || m_token.isDouble()))
        return;
    m_exchange->push(QJsonObject{
        {u"jsonrpc"_s, u"2.0"_s},
        {u"method"_s, u"notifications/progress"_s},
        {u"params"_s, QJsonObject{{u"progressToken"_s, m_token},
                                  {u"progress"_s, 100 * m_done / qMax(1, m_answer.steps)},
                                  {u"total"_s, 100},
                                  {u"message"_s, u"Step %1 of %2"_s.arg(m_done).arg(m_answer.steps)}}}});
}

} // namespace demo
