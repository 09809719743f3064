#include "fakesecretstore.h"
#include "signinprogress.h"
#include "signinstore.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using folio::SignInFlow;
using folio::SignInProgress;
using folio::SignInStore;

// SignInProgress: how the Auth view reads a server's sign-in, on a store with an in-memory
// keychain. A flow against a port where nothing listens fails at its first step, which is all the
// flow this needs (tst_signin signs in for real against the demo server's authorization server).
class tst_SignInProgress : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noStore();
    void notSignedIn();
    void failedFlow();
};

void tst_SignInProgress::noStore()
{
    SignInProgress progress(nullptr);
    QVERIFY(!progress.isAvailable());
    QVERIFY(!progress.store());
    QVERIFY(progress.statusText(0).isEmpty());
    QVERIFY(progress.steps(-1).isEmpty());
    QVERIFY(!progress.currentFlow());
    QVERIFY(progress.pastFlows().isEmpty());
    progress.signIn(); // nothing to sign in to: nothing happens
    progress.cancel();
    QVERIFY(!progress.isRunning());
}

void tst_SignInProgress::notSignedIn()
{
    FakeSecretStore secrets;
    SignInStore store(QUrl(QStringLiteral("http://127.0.0.1:9/mcp")), &secrets);
    SignInProgress progress(&store);
    QVERIFY(progress.isAvailable());
    QCOMPARE(progress.store(), &store);
    QVERIFY(!progress.isLoaded());
    bool loaded = false;
    store.load([&loaded] { loaded = true; });
    QTRY_VERIFY(loaded);
    QVERIFY(progress.isLoaded());
    QVERIFY(!progress.isSignedIn());
    QVERIFY(!progress.hasAnything());
    QVERIFY(!progress.isCounting());
    const QString status = progress.statusText(0);
    QVERIFY2(status.startsWith(QStringLiteral("Not signed in.")), qPrintable(status));
    QVERIFY(status.contains(QStringLiteral("(an HTTP 401)")));
    QCOMPARE(progress.serverUrl(), QStringLiteral("http://127.0.0.1:9/mcp"));
    QVERIFY(!progress.isStepped());
    progress.setStepped(true);
    QVERIFY(progress.isStepped());
}

void tst_SignInProgress::failedFlow()
{
    // A port that was free a moment ago: the challenge request is refused.
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    FakeSecretStore secrets;
    SignInStore store(QUrl(QStringLiteral("http://127.0.0.1:%1/mcp").arg(port)), &secrets);
    SignInProgress progress(&store);
    QSignalSpy started(&progress, &SignInProgress::flowStarted);
    QSignalSpy finished(&progress, &SignInProgress::flowFinished);
    QSignalSpy added(&progress, &SignInProgress::stepAdded);
    progress.signIn(); // loads the record first, then signs in
    QVERIFY(finished.wait(10000));
    QCOMPARE(started.size(), 1);
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY(!added.isEmpty());
    QVERIFY(!progress.isRunning());
    const std::optional<SignInFlow> flow = progress.currentFlow();
    QVERIFY(flow);
    QVERIFY(!flow->running);
    QVERIFY(!flow->succeeded);
    QVERIFY(!flow->error.isEmpty());
    QVERIFY(!flow->steps.isEmpty());
    QCOMPARE(progress.steps(-1).size(), flow->steps.size());
    QVERIFY(progress.steps(0).isEmpty()); // no past flow yet
    QVERIFY(progress.hasAnything());

    // A second flow: the first becomes a past one.
    progress.signIn();
    QVERIFY(finished.wait(10000));
    QCOMPARE(progress.pastFlows().size(), 1);
    QCOMPARE(progress.pastFlows().first().title, flow->title);
    QCOMPARE(progress.steps(0).size(), flow->steps.size());

    QSignalSpy cleared(&progress, &SignInProgress::flowsCleared);
    progress.signOut();
    QTRY_COMPARE(cleared.size(), 1);
    QVERIFY(!progress.currentFlow());
    QVERIFY(progress.pastFlows().isEmpty());
    QVERIFY(!progress.hasAnything());
}

QTEST_GUILESS_MAIN(tst_SignInProgress)
#include "tst_signinprogress.moc"
