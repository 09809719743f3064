// The server's questions in the window: a 2026 tool that asks for confirmation (input_required
// with an elicitation) opens a form with the schema's defaults; filling it in and accepting
// completes the call with what was chosen; declining and cancelling are said to the server; a
// sampling request is answered with what a person types; roots come from the server's settings.
// Offscreen, against the real demo server.

#include "inputresponder.h"
#include "invocation.h"
#include "mainwindow.h"
#include "mcpclient.h"
#include "schemaform.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "windowfixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

QString textOf(const QJsonObject &result)
{
    QStringList parts;
    for (const QJsonValue &b : result.value(QStringLiteral("content")).toArray())
        parts << b.toObject().value(QStringLiteral("text")).toString();
    return parts.join(QLatin1Char('\n'));
}

// A reply the test answers itself, for the dialogs on their own.
InputReply *replyFor(InputRequest::Kind kind, const QString &method, const QJsonObject &params,
                     QObject *parent)
{
    InputRequest request;
    request.kind = kind;
    request.method = method;
    request.params = params;
    request.askedFor = QStringLiteral("tools/call demo");
    return new InputReply(request, parent);
}

} // namespace

class tst_InputResponder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void elicitationFormCompletesTheCall();
    void declineIsSaidToTheServer();
    void samplingIsAnsweredByAPerson();
    void rootsComeFromTheSettings();
    void withdrawnReplyClosesItsDialog();

private:
    ServerSession *openDemo();
    Invocation *sendDraft(ServerSession *session);

    WindowFixture m_fixture;
};

void tst_InputResponder::initTestCase()
{
    WindowFixture::initSettings("tst_inputresponder");
    qRegisterMetaType<McpError>();
}

void tst_InputResponder::cleanup()
{
    m_fixture.reset();
}

ServerSession *tst_InputResponder::openDemo()
{
    m_fixture.openDemo({QStringLiteral("--scenario"), QStringLiteral("tour")}, QSize(1100, 700));
    ServerSession *session = m_fixture.servers()->session(0);
    (void)QTest::qWaitFor([session] { return session->state() == McpClient::State::Connected; }, 15000);
    return session;
}

Invocation *tst_InputResponder::sendDraft(ServerSession *session)
{
    // The tool as listed is enough here: send_draft has no header-marked arguments.
    const QJsonObject tool{{QStringLiteral("name"), QStringLiteral("send_draft")}};
    return session->client()->invokeTool(tool, {{QStringLiteral("draft_id"), QStringLiteral("d-1")}}, this);
}

void tst_InputResponder::elicitationFormCompletesTheCall()
{
    ServerSession *session = openDemo();
    QCOMPARE(session->state(), McpClient::State::Connected);
    QVERIFY(session->client()->isModern());
    // The window declares what it answers.
    QVERIFY(session->client()->clientCapabilities().contains(QStringLiteral("elicitation")));
    Invocation *call = sendDraft(session);
    auto *responder = dynamic_cast<WindowInputResponder *>(session->client()->inputResponder());
    QVERIFY(responder);
    QTRY_VERIFY_WITH_TIMEOUT(responder->openDialog(), 10000);
    auto *dialog = qobject_cast<ElicitationDialog *>(responder->openDialog());
    QVERIFY(dialog);
    QVERIFY(dialog->windowTitle().contains(session->displayName()));

    // The schema's defaults are in the form: confirm ticked, "now".
    QCOMPARE(dialog->form()->values().value(QStringLiteral("when")).toString(), QStringLiteral("now"));
    auto *when = dialog->form()->findChild<QComboBox *>();
    QVERIFY(when);
    const int later = when->findText(QStringLiteral("tomorrow morning"), Qt::MatchContains);
    QVERIFY(later >= 0);
    when->setFocus();
    when->setCurrentIndex(later); // what choosing from the list does
    QCOMPARE(dialog->form()->values().value(QStringLiteral("when")).toString(),
             QStringLiteral("tomorrow morning"));
    QVERIFY(dialog->acceptButton()->isEnabled());
    QTest::mouseClick(dialog->acceptButton(), Qt::LeftButton);

    QSignalSpy finished(call, &Invocation::finished);
    QVERIFY(call->isFinished() || finished.wait(10000));
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
    QCOMPARE(call->rounds().size(), 2);
    QVERIFY2(textOf(call->result()).contains(QStringLiteral("tomorrow morning")),
             qPrintable(textOf(call->result())));
}

void tst_InputResponder::declineIsSaidToTheServer()
{
    ServerSession *session = openDemo();
    QCOMPARE(session->state(), McpClient::State::Connected);
    Invocation *call = sendDraft(session);
    auto *responder = dynamic_cast<WindowInputResponder *>(session->client()->inputResponder());
    QTRY_VERIFY_WITH_TIMEOUT(responder->openDialog(), 10000);
    auto *dialog = responder->openDialog();
    QPushButton *decline = nullptr;
    for (QPushButton *b : dialog->findChildren<QPushButton *>()) {
        if (b->text() == QLatin1String("Decline"))
            decline = b;
    }
    QVERIFY(decline);
    QTest::mouseClick(decline, Qt::LeftButton);
    QSignalSpy finished(call, &Invocation::finished);
    QVERIFY(call->isFinished() || finished.wait(10000));
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
    QVERIFY2(textOf(call->result()).contains(QStringLiteral("not sent")), qPrintable(textOf(call->result())));
    QTRY_VERIFY(!responder->openDialog());
}

void tst_InputResponder::samplingIsAnsweredByAPerson()
{
    QWidget parent;
    InputReply *reply =
        replyFor(InputRequest::Kind::Sampling, QStringLiteral("sampling/createMessage"),
                 {{QStringLiteral("messages"),
                   QJsonArray{QJsonObject{
                       {QStringLiteral("role"), QStringLiteral("user")},
                       {QStringLiteral("content"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), QStringLiteral("Capital of France?")}}}}}},
                  {QStringLiteral("maxTokens"), 20}},
                 &parent);
    QSignalSpy replied(reply, &InputReply::replied);
    auto *dialog = new SamplingDialog(QStringLiteral("demo"), reply, &parent);
    dialog->show();
    QVERIFY(!dialog->sendButton()->isEnabled()); // nothing typed yet
    QTest::keyClicks(dialog->replyEdit(), QStringLiteral("Paris"));
    QVERIFY(dialog->sendButton()->isEnabled());
    QTest::mouseClick(dialog->sendButton(), Qt::LeftButton);
    QCOMPARE(replied.size(), 1);
    const QJsonObject result = replied.first().first().toJsonObject();
    QCOMPARE(result.value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
    QCOMPARE(result.value(QStringLiteral("content")).toObject().value(QStringLiteral("text")).toString(),
             QStringLiteral("Paris"));

    // Closing without sending declines (an error the server gets).
    InputReply *second =
        replyFor(InputRequest::Kind::Sampling, QStringLiteral("sampling/createMessage"), {}, &parent);
    QSignalSpy secondReplied(second, &InputReply::replied);
    auto *other = new SamplingDialog(QStringLiteral("demo"), second, &parent);
    other->show();
    QTest::keyClick(other, Qt::Key_Escape);
    QCOMPARE(secondReplied.size(), 1);
    QVERIFY(secondReplied.first().at(1).value<McpError>().isError());
}

void tst_InputResponder::rootsComeFromTheSettings()
{
    ServerSession *session = openDemo();
    QCOMPARE(session->state(), McpClient::State::Connected);
    ServerConfig config = session->config();
    config.roots = {QStringLiteral("file:///home/demo/project")};
    session->setConfig(config);
    auto *responder = dynamic_cast<WindowInputResponder *>(session->client()->inputResponder());
    QVERIFY(responder);
    InputReply *reply = replyFor(InputRequest::Kind::Roots, QStringLiteral("roots/list"), {}, this);
    QSignalSpy replied(reply, &InputReply::replied);
    responder->respond(reply);
    QCOMPARE(replied.size(), 1);
    const QJsonArray roots = replied.first().first().toJsonObject().value(QStringLiteral("roots")).toArray();
    QCOMPARE(roots.size(), 1);
    QCOMPARE(roots.first().toObject().value(QStringLiteral("uri")).toString(),
             QStringLiteral("file:///home/demo/project"));
    QVERIFY(!responder->openDialog()); // asked nobody
}

void tst_InputResponder::withdrawnReplyClosesItsDialog()
{
    QWidget parent;
    InputReply *reply = replyFor(
        InputRequest::Kind::Elicitation, QStringLiteral("elicitation/create"),
        {{QStringLiteral("message"), QStringLiteral("Name?")},
         {QStringLiteral("requestedSchema"),
          QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                      {QStringLiteral("properties"),
                       QJsonObject{{QStringLiteral("name"),
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}}}},
        &parent);
    QSignalSpy replied(reply, &InputReply::replied);
    QPointer<ElicitationDialog> dialog = new ElicitationDialog(QStringLiteral("demo"), reply, &parent);
    dialog->show();
    reply->withdraw(); // the call was cancelled
    QTRY_VERIFY(!dialog || !dialog->isVisible());
    QCOMPARE(replied.size(), 0); // nothing more is said
}

QTEST_MAIN(tst_InputResponder)
#include "tst_inputresponder.moc"
