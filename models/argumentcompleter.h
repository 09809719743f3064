#pragma once

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QStringList>

namespace folio {

class McpClient;
class RpcCall;

// Suggestions for the arguments of one prompt or resource template, from the server's
// completion/complete: the one place the window (Get Prompt, Read from Template) asks. Each
// argument has at most one request on its way: a newer ask() replaces the older, whose answer is
// dropped. Values are the strings the server sent, at most maxValues (the spec's cap).
class ArgumentCompleter : public QObject
{
    Q_OBJECT
public:
    static constexpr int maxValues = 100;

    // ref: promptRef() or resourceRef().
    ArgumentCompleter(McpClient *client, const QJsonObject &ref, QObject *parent = nullptr);

    static QJsonObject promptRef(const QString &name);
    static QJsonObject resourceRef(const QString &uriTemplate);

    // Whether the server offers completion (its "completions" capability).
    bool isOffered() const;
    // Asks for suggestions for argument at value, the other arguments' values as context.
    void ask(const QString &argument, const QString &value, const QJsonObject &context = {});

Q_SIGNALS:
    void completed(const QString &argument, const QStringList &values);
    void failed(const QString &argument, const QString &message);

private:
    QPointer<McpClient> m_client;
    QJsonObject m_ref;
    QHash<QString, QPointer<RpcCall>> m_pending;
};

} // namespace folio
