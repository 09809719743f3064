#include "argumentcompleter.h"
#include "mcpclient.h"
#include "scriptedtransport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using folio::ArgumentCompleter;
using folio::McpClient;

// ArgumentCompleter: the window's one way to ask completion/complete, against a scripted server.
class tst_ArgumentCompleter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void asksAndCaps();
    void newerAnswerWins();
    void failureIsSaid();
    void notOffered();

private:
    // A client on a scripted modern server with the completions capability (or not); handler
    // answers completion/complete.
    McpClient *connected(ScriptedTransport::Handler handler, bool completions = true);
    QPointer<ScriptedTransport> m_transport;
};

McpClient *tst_ArgumentCompleter::connected(ScriptedTransport::Handler handler, bool completions)
{
    return connectedToScripted(this, std::move(handler), [this, completions](ScriptedTransport *t) {
        if (completions)
            t->capabilities.insert(QStringLiteral("completions"), QJsonObject());
        m_transport = t;
    });
}

void tst_ArgumentCompleter::asksAndCaps()
{
    QJsonObject asked;
    McpClient *client = connected([&asked](const QString &method, const QJsonObject &params) {
        if (method != QLatin1String("completion/complete"))
            return QJsonObject();
        asked = params;
        QJsonArray values;
        for (int i = 0; i < 150; ++i)
            values.append(QStringLiteral("v%1").arg(i));
        values.append(7); // not a string: left out
        return QJsonObject{{QStringLiteral("completion"), QJsonObject{{QStringLiteral("values"), values}}}};
    });
    QVERIFY(client);
    ArgumentCompleter completer(client, ArgumentCompleter::promptRef(QStringLiteral("greet")));
    QVERIFY(completer.isOffered());
    QSignalSpy completed(&completer, &ArgumentCompleter::completed);
    completer.ask(QStringLiteral("name"), QStringLiteral("al"),
                  {{QStringLiteral("lang"), QStringLiteral("en")}});
    QVERIFY(completed.wait(5000));
    QCOMPARE(completed.first().at(0).toString(), QStringLiteral("name"));
    const QStringList values = completed.first().at(1).toStringList();
    QCOMPARE(values.size(), ArgumentCompleter::maxValues);
    QCOMPARE(values.first(), QStringLiteral("v0"));
    QCOMPARE(asked.value(QStringLiteral("ref")).toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("ref/prompt")},
                          {QStringLiteral("name"), QStringLiteral("greet")}}));
    QCOMPARE(asked.value(QStringLiteral("argument")).toObject().value(QStringLiteral("value")).toString(),
             QStringLiteral("al"));
    QCOMPARE(asked.value(QStringLiteral("context")).toObject().value(QStringLiteral("arguments")).toObject(),
             (QJsonObject{{QStringLiteral("lang"), QStringLiteral("en")}}));
}

void tst_ArgumentCompleter::newerAnswerWins()
{
    McpClient *client = connected([](const QString &method, const QJsonObject &params) {
        if (method != QLatin1String("completion/complete"))
            return QJsonObject();
        const QString typed =
            params.value(QStringLiteral("argument")).toObject().value(QStringLiteral("value")).toString();
        return QJsonObject{{QStringLiteral("completion"),
                            QJsonObject{{QStringLiteral("values"), QJsonArray{typed + u'!'}}}}};
    });
    QVERIFY(client);
    ArgumentCompleter completer(client, ArgumentCompleter::resourceRef(QStringLiteral("file:///{path}")));
    QSignalSpy completed(&completer, &ArgumentCompleter::completed);
    completer.ask(QStringLiteral("path"), QStringLiteral("a"));
    completer.ask(QStringLiteral("path"), QStringLiteral("ab")); // replaces the first
    QVERIFY(completed.wait(5000));
    QTRY_COMPARE(m_transport->requests, 2);
    QCOMPARE(completed.size(), 1);
    QCOMPARE(completed.first().at(1).toStringList(), QStringList{QStringLiteral("ab!")});
}

void tst_ArgumentCompleter::failureIsSaid()
{
    McpClient *client = connected([](const QString &, const QJsonObject &) {
        return QJsonObject{{QStringLiteral("error"),
                            QJsonObject{{QStringLiteral("code"), -32602},
                                        {QStringLiteral("message"), QStringLiteral("no such prompt")}}}};
    });
    QVERIFY(client);
    ArgumentCompleter completer(client, ArgumentCompleter::promptRef(QStringLiteral("x")));
    QSignalSpy failed(&completer, &ArgumentCompleter::failed);
    completer.ask(QStringLiteral("a"), QString());
    QVERIFY(failed.wait(5000));
    QVERIFY2(failed.first().at(1).toString().contains(QStringLiteral("no such prompt")),
             qPrintable(failed.first().at(1).toString()));
}

void tst_ArgumentCompleter::notOffered()
{
    McpClient *client = connected([](const QString &, const QJsonObject &) { return QJsonObject(); }, false);
    QVERIFY(client);
    QVERIFY(!ArgumentCompleter(client, ArgumentCompleter::promptRef(QStringLiteral("x"))).isOffered());
    QVERIFY(!ArgumentCompleter(nullptr, {}).isOffered());
}

QTEST_GUILESS_MAIN(tst_ArgumentCompleter)
#include "tst_argumentcompleter.moc"
