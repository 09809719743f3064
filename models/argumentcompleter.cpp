#include "argumentcompleter.h"

#include "mcpclient.h"
#include "rpccall.h"

#include <QJsonArray>

namespace folio {

ArgumentCompleter::ArgumentCompleter(McpClient *client, const QJsonObject &ref, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_ref(ref)
{}

QJsonObject ArgumentCompleter::promptRef(const QString &name)
{
    return {{QStringLiteral("type"), QStringLiteral("ref/prompt")}, {QStringLiteral("name"), name}};
}

QJsonObject ArgumentCompleter::resourceRef(const QString &uriTemplate)
{
    return {{QStringLiteral("type"), QStringLiteral("ref/resource")}, {QStringLiteral("uri"), uriTemplate}};
}

bool ArgumentCompleter::isOffered() const
{
    return m_client && m_client->offersCompletion();
}

void ArgumentCompleter::ask(const QString &argument, const QString &value, const QJsonObject &context)
{
    if (!m_client)
        return;
    if (RpcCall *older = m_pending.value(argument))
        older->deleteLater(); // its answer is for older text
    RpcCall *call = m_client->complete(m_ref, argument, value, context, this);
    m_pending.insert(argument, call);
    connect(call, &RpcCall::finished, this, [this, argument, call] {
        call->deleteLater();
        if (m_pending.value(argument) != call)
            return; // a newer request replaced it
        m_pending.remove(argument);
        if (call->isError()) {
            Q_EMIT failed(argument, call->error().describe());
            return;
        }
        QStringList values;
        const QJsonArray got = call->result()
                                   .value(QStringLiteral("completion"))
                                   .toObject()
                                   .value(QStringLiteral("values"))
                                   .toArray();
        for (const QJsonValue &v : got) {
            if (v.isString() && values.size() < maxValues)
                values << v.toString();
        }
        Q_EMIT completed(argument, values);
    });
}

} // namespace folio
