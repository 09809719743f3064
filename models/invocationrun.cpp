#include "invocationrun.h"

#include "invocation.h"
#include "mcpclient.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

namespace {

QString indented(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented));
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

} // namespace

InvocationRun::InvocationRun(Invocation *invocation, QObject *parent)
    : QObject(parent)
    , m_invocation(invocation)
{
    invocation->setParent(this);
    connect(invocation, &Invocation::progressed, this, &InvocationRun::progressed);
    connect(invocation, &Invocation::finished, this, &InvocationRun::finished);
}

InvocationRun::~InvocationRun() = default;

InvocationRun *InvocationRun::callTool(McpClient *client, const QJsonObject &tool,
                                       const QJsonObject &arguments, QObject *parent)
{
    return new InvocationRun(client->invokeTool(tool, arguments), parent);
}

InvocationRun *InvocationRun::getPrompt(McpClient *client, const QString &name, const QJsonObject &arguments,
                                        QObject *parent)
{
    return new InvocationRun(client->getPrompt(name, arguments), parent);
}

QString InvocationRun::refusal(const QJsonObject &tool)
{
    return McpClient::toolHeaderProblem(tool);
}

QString InvocationRun::title() const
{
    return m_invocation ? m_invocation->title() : QString();
}

QJsonObject InvocationRun::params() const
{
    return m_invocation ? m_invocation->params() : QJsonObject();
}

bool InvocationRun::isFinished() const
{
    return !m_invocation || m_invocation->isFinished();
}

McpError InvocationRun::error() const
{
    return m_invocation ? m_invocation->error() : McpError();
}

QJsonObject InvocationRun::result() const
{
    if (!m_invocation)
        return {};
    QJsonObject result = m_invocation->result();
    if (result.isEmpty() && m_invocation->error().kind == McpError::Kind::ToolError &&
        !m_invocation->rounds().isEmpty())
        result = m_invocation->rounds().constLast().result;
    return result;
}

InvocationRun::Outcome InvocationRun::outcome() const
{
    if (!isFinished())
        return Outcome::Running;
    const McpError e = error();
    if (e.kind == McpError::Kind::Cancelled)
        return Outcome::Cancelled;
    if (e.kind == McpError::Kind::ToolError || result().value(QStringLiteral("isError")).toBool(false))
        return Outcome::ToolError;
    return e.isError() ? Outcome::Failed : Outcome::Done;
}

int InvocationRun::roundCount() const
{
    return m_invocation ? int(m_invocation->rounds().size()) : 0;
}

qint64 InvocationRun::totalMs() const
{
    return m_invocation && !m_invocation->rounds().isEmpty() ? m_invocation->totalMs() : -1;
}

QString InvocationRun::timing() const
{
    const int rounds = roundCount();
    const QString trips = rounds == 1 ? tr("1 round trip") : tr("%1 round trips").arg(rounds);
    const qint64 ms = totalMs();
    return ms >= 0 ? tr("%1, %2 ms.").arg(trips, QString::number(ms)) : trips + QLatin1Char('.');
}

QString InvocationRun::transcript() const
{
    if (!m_invocation)
        return {};
    const QList<Invocation::Round> &rounds = m_invocation->rounds();
    if (rounds.isEmpty())
        return m_invocation->error().isError()
                   ? tr("Nothing was sent: %1").arg(m_invocation->error().describe())
                   : tr("Nothing was sent.");
    QString text;
    for (qsizetype i = 0; i < rounds.size(); ++i) {
        const Invocation::Round &r = rounds.at(i);
        text += tr("── Round %1 · id %2 · %3 ms ──\n")
                    .arg(QString::number(i + 1), indented(r.id),
                         r.latencyMs >= 0 ? QString::number(r.latencyMs) : QStringLiteral("?"));
        text += tr("Request params:\n") + indented(r.params) + QLatin1Char('\n');
        if (!r.raw.isEmpty()) {
            const QJsonDocument doc = QJsonDocument::fromJson(r.raw);
            text += tr("Response:\n") +
                    (doc.isNull() ? QString::fromUtf8(r.raw)
                                  : QString::fromUtf8(doc.toJson(QJsonDocument::Indented))) +
                    QLatin1Char('\n');
        }
        if (r.error.isError())
            text += tr("Error: %1\n").arg(r.error.describe());
        for (const InputRequest &in : r.inputs)
            text += tr("The server asked: %1\n").arg(in.summary());
        text += QLatin1Char('\n');
    }
    return text;
}

void InvocationRun::cancel()
{
    if (m_invocation && !m_invocation->isFinished())
        m_invocation->cancel();
}

} // namespace folio
