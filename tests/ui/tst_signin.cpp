#include "authorizer.h"
#include "machinesignindialog.h"
#include "mainwindow.h"
#include "oauthflow.h"
#include "secretstore.h"
#include "serverlistmodel.h"
#include "serverprocess.h"
#include "serversession.h"
#include "signinpanel.h"
#include "signinstore.h"
#include "trafficexport.h"
#include "trafficlog.h"
#include "windowfixture.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>

using namespace folio;

namespace {

// Every message the process logged (the window's and the library's categories, debug included):
// what would reach stderr.
QStringList g_messages;
QtMessageHandler g_previous = nullptr;
void collect(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    g_messages.append(message);
    if (g_previous && type != QtDebugMsg)
        g_previous(type, context, message);
}

} // namespace

// Signing in through the window, against the demo server's own authorization server (--oauth):
// the browser is replaced by an HTTP GET of the authorization URL, which the demo's authorization
// server answers at once with the redirect to Folio's loopback listener, as a browser would follow
// it. The Sign-in dock shows every step; no token reaches the settings file, the traffic log, a
// report or the log.
class tst_SignIn : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void signsInThroughTheWindowAndShowsTheSteps();
    void stepsThroughWithContinue();
    void signOutAsksAndForgetsTheTokens();
    void noTokenLeaksIntoFilesOrLogs();
    void stdioServerNeedsNoSignIn();
    void aFailedSignInIsNamedByItsStepNotTheRefusal();
    void aWaitingSignInOffersItsPageAgain();
    void theMachineFormAsksForWhatItsGrantNeeds();
    void aMachineSignsInWithClientCredentials();

private:
    // Starts the demo server on HTTP with its authorization server; false when it did not listen.
    bool startServer(const QStringList &oauth = {});
    // The window on it, the browser an HTTP GET; connects unless told not to.
    void openWindow(bool connect = true);
    Authorizer *authorizer() const;
    bool signedIn() const;

    QProcess m_server;
    QString m_url;
    QNetworkAccessManager m_browser;
    int m_browserOpened = 0;
    bool m_browserFollows = true; // false: the page is left waiting, as a user who has not signed in yet
    QList<QUrl> m_pagesOpened;
    WindowFixture m_fixture;
};

void tst_SignIn::initTestCase()
{
    WindowFixture::initSettings("tst_signin");
    QLoggingCategory::setFilterRules(QStringLiteral("folio.*=true"));
    g_previous = qInstallMessageHandler(collect);
}

void tst_SignIn::init()
{
    m_browserOpened = 0;
}

void tst_SignIn::cleanup()
{
    if (ServerListModel *servers = m_fixture.servers()) {
        // Nothing of this run stays in the test keychain: each forget() is one keychain job, and
        // the store answers each with one signal.
        QSignalSpy stored(m_fixture.secrets(), &SecretStore::stored);
        QSignalSpy removed(m_fixture.secrets(), &SecretStore::removed);
        QSignalSpy failed(m_fixture.secrets(), &SecretStore::failed);
        int forgotten = 0;
        for (int row = 0; row < servers->rowCount(); ++row) {
            servers->session(row)->disconnectFromServer();
            if (SignInStore *s = servers->session(row)->signIn()) {
                s->forget();
                ++forgotten;
            }
        }
        (void)QTest::qWaitFor([&] { return stored.size() + removed.size() + failed.size() >= forgotten; },
                              5000);
    }
    m_fixture.reset();
    m_server.kill();
    m_server.waitForFinished(5000);
    m_url.clear();
    m_browserOpened = 0;
    m_browserFollows = true;
    m_pagesOpened.clear();
    QSettings().clear();
}

bool tst_SignIn::startServer(const QStringList &oauth)
{
    m_server.setProgram(QStringLiteral(FOLIO_DEMO_SERVER));
    m_server.setArguments(
        {QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--http"),
         QStringLiteral("0"),
         QStringLiteral("--oauth=") + (oauth.isEmpty() ? QStringLiteral("jwt") : oauth.join(u','))});
    m_server.start();
    m_url = testsupport::listeningUrl(m_server);
    return !m_url.isEmpty();
}

void tst_SignIn::openWindow(bool connect)
{
    ServerConfig config = ServerConfig::remote(QUrl(m_url));
    config.name = QStringLiteral("hosted");
    m_fixture.makeServers()->addServer(config);
    m_fixture.showWindow();
    // The browser: the authorization URL fetched, its redirect followed to the loopback listener.
    m_fixture.servers()->session(0)->setSignInBrowser([this](const QUrl &url) {
        ++m_browserOpened;
        m_pagesOpened.append(url);
        if (!m_browserFollows)
            return;
        QNetworkReply *reply = m_browser.get(QNetworkRequest(url));
        QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    });
    if (connect)
        m_fixture.window()->connectCurrent();
}

Authorizer *tst_SignIn::authorizer() const
{
    SignInStore *store = m_fixture.servers() ? m_fixture.servers()->session(0)->signIn() : nullptr;
    return store ? store->authorizer() : nullptr;
}

bool tst_SignIn::signedIn() const
{
    return m_fixture.servers()->session(0)->state() == McpClient::State::Connected &&
           authorizer()->isSignedIn();
}

void tst_SignIn::signsInThroughTheWindowAndShowsTheSteps()
{
    QVERIFY(startServer());
    openWindow();
    QVERIFY(authorizer());
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    QCOMPARE(m_browserOpened, 1);
    // The dock came forward when the sign-in started.
    QVERIFY(m_fixture.window()->signInDock()->isVisible());
    SignInPanel *panel = m_fixture.window()->signInPanel();
    QTreeWidget *tree = panel->steps();
    QCOMPARE(tree->topLevelItemCount(), 1);
    QTreeWidgetItem *flow = tree->topLevelItem(0);
    QCOMPARE(flow->text(0), QStringLiteral("Sign-in"));
    QTRY_COMPARE(flow->text(1), QStringLiteral("signed in"));
    auto titles = [flow] {
        QStringList t;
        for (int i = 0; i < flow->childCount(); ++i)
            t.append(flow->child(i)->text(0));
        return t.join(u'|');
    };
    const QStringList expected{QStringLiteral("Challenge"),
                               QStringLiteral("Protected resource metadata"),
                               QStringLiteral("Authorization server metadata"),
                               QStringLiteral("Client registration"),
                               QStringLiteral("Authorization"),
                               QStringLiteral("Callback"),
                               QStringLiteral("Token"),
                               QStringLiteral("Authorized request")};
    // Every one done.
    QTRY_VERIFY2(flow->childCount() == expected.size(), qPrintable(titles()));
    for (int i = 0; i < expected.size(); ++i) {
        QCOMPARE(flow->child(i)->text(0), expected.at(i));
        QCOMPARE(flow->child(i)->data(0, SignInPanel::StateRole).toInt(), int(AuthStep::State::Done));
    }

    // The token step: its rules, its exchange, the JWT's claims, the token masked until asked.
    tree->setCurrentItem(flow->child(6));
    const QString token = authorizer()->accessToken();
    QVERIFY(token.size() > 12);
    QString detail = panel->detail()->toPlainText();
    QVERIFY2(detail.contains(QStringLiteral("POST ")), qPrintable(detail));
    QVERIFY(detail.contains(QStringLiteral("grant_type = authorization_code")));
    QVERIFY(detail.contains(QStringLiteral("Access token claims")));
    QVERIFY(detail.contains(QStringLiteral("code_verifier")));
    QVERIFY2(!detail.contains(token), "the token shows masked");
    QVERIFY(panel->revealBox()->isEnabled());
    panel->revealBox()->setChecked(true);
    QVERIFY(panel->detail()->toPlainText().contains(token));
    // Another step selected: masked again.
    tree->setCurrentItem(flow->child(2));
    QVERIFY(!panel->revealBox()->isChecked());
    detail = panel->detail()->toPlainText();
    QVERIFY2(detail.contains(QStringLiteral("S256 advertised")), qPrintable(detail));
    QVERIFY(panel->statusText().startsWith(QStringLiteral("Signed in")));
    QVERIFY(panel->statusText().contains(QStringLiteral("expires in")));
}

void tst_SignIn::stepsThroughWithContinue()
{
    QVERIFY(startServer());
    openWindow();
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    SignInPanel *panel = m_fixture.window()->signInPanel();
    panel->signOut(false);
    QTRY_VERIFY(!authorizer()->isSignedIn());
    QCOMPARE(panel->steps()->topLevelItemCount(), 0);
    panel->steppedBox()->setChecked(true);
    QVERIFY(authorizer()->isStepped());
    panel->signIn();
    // Paused after the first step: Continue goes on, one step each.
    int continues = 0;
    QElapsedTimer timer;
    timer.start();
    while (!authorizer()->isSignedIn() && timer.elapsed() < 30000) {
        QTRY_VERIFY_WITH_TIMEOUT(panel->continueButton()->isEnabled() || authorizer()->isSignedIn(), 10000);
        if (authorizer()->isSignedIn())
            break;
        QVERIFY(panel->statusText().startsWith(QStringLiteral("Paused")));
        QTest::mouseClick(panel->continueButton(), Qt::LeftButton);
        ++continues;
    }
    QVERIFY(authorizer()->isSignedIn());
    QVERIFY2(continues >= 5, qPrintable(QString::number(continues)));
    QCOMPARE(panel->steps()->topLevelItem(0)->text(1), QStringLiteral("signed in"));
}

void tst_SignIn::signOutAsksAndForgetsTheTokens()
{
    QVERIFY(startServer());
    openWindow();
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    SignInPanel *panel = m_fixture.window()->signInPanel();
    // Cancel keeps everything.
    QTimer::singleShot(0, this, [] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        QVERIFY(box);
        QCOMPARE(box->objectName(), QStringLiteral("confirmSignOut"));
        box->button(QMessageBox::Cancel)->click();
    });
    panel->signOut();
    QVERIFY(authorizer()->isSignedIn());
    // Sign Out forgets the tokens and the steps that carried them.
    QTimer::singleShot(0, this, [] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        QVERIFY(box);
        for (QAbstractButton *b : box->buttons()) {
            if (box->buttonRole(b) == QMessageBox::DestructiveRole)
                b->click();
        }
    });
    panel->signOut();
    QVERIFY(!authorizer()->isSignedIn());
    QCOMPARE(panel->steps()->topLevelItemCount(), 0);
    QTRY_VERIFY(!m_fixture.servers()->session(0)->signIn()->isSaving());
    QVERIFY(panel->statusText().startsWith(QStringLiteral("Not signed in")));
}

void tst_SignIn::noTokenLeaksIntoFilesOrLogs()
{
    g_messages.clear();
    QVERIFY(startServer({QStringLiteral("jwt"), QStringLiteral("token-ttl-ms=60000")}));
    openWindow();
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    ServerSession *session = m_fixture.servers()->session(0);
    const AuthRecord record = authorizer()->record();
    QStringList secrets{record.tokens.accessToken};
    if (!record.tokens.refreshToken.isEmpty())
        secrets.append(record.tokens.refreshToken);
    QVERIFY(!secrets.first().isEmpty());

    QTemporaryDir dir;
    // The settings file.
    QSettings().sync();
    QFile settings(QSettings().fileName());
    QByteArray written;
    if (settings.open(QIODevice::ReadOnly))
        written += settings.readAll();
    // The traffic log, as exported (JSON Lines and HAR).
    const TrafficLog *log = session->client()->trafficLog();
    QVERIFY(!log->entries().isEmpty());
    written += TrafficExport::toJsonLines(log->entries());
    written += QJsonDocument(TrafficExport::toHar(log->httpExchanges(), QStringLiteral("test"))).toJson();
    QString error;
    // A report of the server.
    const QString report = dir.filePath(QStringLiteral("report.json"));
    QVERIFY2(m_fixture.window()->exportReport(report, &error), qPrintable(error));
    QFile f(report);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(bytes.contains("\"server\""));
    written += bytes;
    // What the process logged.
    const QByteArray logged = g_messages.join(u'\n').toUtf8();
    QVERIFY(!logged.isEmpty());
    for (const QString &secret : secrets) {
        QVERIFY2(!written.contains(secret.toUtf8()), "a token reached a file");
        QVERIFY2(!logged.contains(secret.toUtf8()), "a token reached the log");
        // Nor any long piece of it (a token cut short is still a token).
        QVERIFY(!written.contains(secret.left(16).toUtf8()));
    }
}

void tst_SignIn::stdioServerNeedsNoSignIn()
{
    m_fixture.makeServers()->setDemoServer(QStringLiteral(FOLIO_DEMO_SERVER), {});
    m_fixture.showWindow(QSize()); // at the size it opens
    SignInPanel *panel = m_fixture.window()->signInPanel();
    QVERIFY(panel->statusText().contains(QStringLiteral("local process")));
    QVERIFY(!panel->signInButton()->isEnabled());
}

// A sign-in begun by an HTTP 401 that then fails a check (here the RFC 9207 iss in the redirect)
// is said as the step and the check, not as "HTTP 401:", which would name the wrong thing.
void tst_SignIn::aFailedSignInIsNamedByItsStepNotTheRefusal()
{
    QVERIFY(startServer({QStringLiteral("fault=wrong-iss")}));
    openWindow();
    ServerSession *session = m_fixture.servers()->session(0);
    QTRY_COMPARE_WITH_TIMEOUT(session->state(), ClientState::Failed, 30000);
    const QString status = m_fixture.window()->serverStatus();
    QVERIFY2(status.contains(QStringLiteral("Sign-in failed at \"Callback\"")), qPrintable(status));
    QVERIFY2(!status.contains(QStringLiteral("HTTP 401")), qPrintable(status));
    auto *view = m_fixture.window()->currentServerView();
    QVERIFY(view);
    QString shown;
    for (const QLabel *label : view->findChildren<QLabel *>())
        shown += label->text() + QLatin1Char('\n');
    QVERIFY2(shown.contains(QStringLiteral("Sign-in failed at \"Callback\"")), qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("HTTP 401")), qPrintable(shown));
}

// While the authorization page waits in the browser, the dock says so, draws every mark of its
// steps in its own font (no missing-glyph box), opens the page again and copies its link; once
// the browser comes back, both buttons go.
void tst_SignIn::aWaitingSignInOffersItsPageAgain()
{
    QVERIFY(startServer());
    m_browserFollows = false;
    openWindow();
    SignInPanel *panel = m_fixture.window()->signInPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->openAgainButton()->isVisible(), 20000);
    QVERIFY(panel->copyLinkButton()->isVisible());
    QCOMPARE(m_pagesOpened.size(), 1);
    QVERIFY2(panel->statusText().startsWith(QStringLiteral("Waiting for the browser")),
             qPrintable(panel->statusText()));

    // The waiting step's heading: every character in the detail's font.
    QTreeWidget *tree = panel->steps();
    QTreeWidgetItem *flow = tree->topLevelItem(tree->topLevelItemCount() - 1);
    QTreeWidgetItem *waiting = flow->child(flow->childCount() - 1);
    QCOMPARE(waiting->text(0), QStringLiteral("Authorization"));
    tree->setCurrentItem(waiting);
    const QString heading = panel->detail()->toPlainText().section(QLatin1Char('\n'), 0, 0);
    QVERIFY2(heading.contains(QStringLiteral("waiting")), qPrintable(heading));
    const QFontMetrics metrics(panel->detail()->font());
    for (const char32_t c : heading.toUcs4())
        QVERIFY2(metrics.inFontUcs4(c),
                 qPrintable(QStringLiteral("U+%1 is not in the font").arg(uint(c), 4, 16, QLatin1Char('0'))));

    panel->openAgainButton()->click();
    QCOMPARE(m_pagesOpened.size(), 2);
    QCOMPARE(m_pagesOpened.at(1), m_pagesOpened.at(0));
    panel->copyLinkButton()->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), m_pagesOpened.at(0).toString(QUrl::FullyEncoded));

    // The user signs in: the browser follows the page, and the buttons go.
    QNetworkReply *reply = m_browser.get(QNetworkRequest(m_pagesOpened.at(0)));
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    QVERIFY(!panel->openAgainButton()->isVisible());
    QVERIFY(!panel->copyLinkButton()->isVisible());
}

// The Machine Sign-in form shows each grant's own fields, and OK waits for what the grant needs.
void tst_SignIn::theMachineFormAsksForWhatItsGrantNeeds()
{
    MachineSignInDialog dialog(MachineSignIn{});
    QPushButton *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
    QVERIFY(dialog.problem().contains(QStringLiteral("client ID")));
    dialog.clientIdEdit()->setText(QStringLiteral("folio-bot"));
    QVERIFY(!ok->isEnabled());
    dialog.clientSecretEdit()->setText(QStringLiteral("s3cret"));
    QVERIFY(ok->isEnabled());
    QVERIFY(dialog.problem().isEmpty());
    QCOMPARE(dialog.clientSecretEdit()->echoMode(), QLineEdit::Password);
    // A workload's JWT needs no client, only its file.
    dialog.grantBox()->setCurrentIndex(dialog.grantBox()->findData(int(OAuthGrant::JwtBearer)));
    QVERIFY(!ok->isEnabled());
    QVERIFY(dialog.problem().contains(QStringLiteral("workload JWT file")));
    QVERIFY(dialog.clientIdEdit()->isHidden());
    const MachineSignIn value = dialog.value();
    QCOMPARE(value.grant, OAuthGrant::JwtBearer);

    // Remembered per server, but for the secrets.
    MachineSignIn form;
    form.clientId = QStringLiteral("folio-bot");
    form.clientSecret = QStringLiteral("s3cret");
    form.keyFile = QStringLiteral("/keys/bot.pem");
    const QUrl server(QStringLiteral("https://mcp.example.com/mcp"));
    form.remember(server);
    const MachineSignIn back = MachineSignIn::remembered(server);
    QCOMPARE(back.clientId, form.clientId);
    QCOMPARE(back.keyFile, form.keyFile);
    QVERIFY(back.clientSecret.isEmpty());
    QCOMPARE(MachineSignIn::remembered(QUrl(QStringLiteral("https://other.example.com/mcp"))).clientId,
             QString());
}

// Client credentials through the dock against the demo's authorization server: no browser, the
// steps shown, the secret never, and the window connects with the token.
void tst_SignIn::aMachineSignsInWithClientCredentials()
{
    QVERIFY(startServer({QStringLiteral("jwt"), QStringLiteral("client=folio-bot:s3cret-value")}));
    openWindow(false);
    SignInPanel *panel = m_fixture.window()->signInPanel();
    QTRY_VERIFY(panel->machineButton()->isEnabled());
    MachineSignIn form;
    form.clientId = QStringLiteral("folio-bot");
    form.clientSecret = QStringLiteral("s3cret-value");
    // A key file that cannot be read stops it before anything is sent, and says why.
    MachineSignIn broken = form;
    broken.keyFile = QStringLiteral("/nonexistent/bot.pem");
    QVERIFY(!panel->signInAsMachine(broken));
    QVERIFY2(panel->statusText().contains(QStringLiteral("cannot read /nonexistent/bot.pem")),
             qPrintable(panel->statusText()));
    QVERIFY(!authorizer()->flow());

    QVERIFY(panel->signInAsMachine(form));
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    QCOMPARE(m_browserOpened, 0);
    QCOMPARE(authorizer()->record().grant, OAuthGrant::ClientCredentials);
    QTreeWidgetItem *flow = panel->steps()->topLevelItem(0);
    QTRY_COMPARE(flow->text(1), QStringLiteral("signed in"));
    QStringList titles;
    for (int i = 0; i < flow->childCount(); ++i)
        titles.append(flow->child(i)->text(0));
    QCOMPARE(titles, (QStringList{QStringLiteral("Challenge"), QStringLiteral("Protected resource metadata"),
                                  QStringLiteral("Authorization server metadata"),
                                  QStringLiteral("Client registration"), QStringLiteral("Token")}));
    panel->steps()->setCurrentItem(flow->child(4));
    const QString detail = panel->detail()->toPlainText();
    QVERIFY2(detail.contains(QStringLiteral("grant_type = client_credentials")), qPrintable(detail));
    QVERIFY2(!detail.contains(QStringLiteral("s3cret-value")), "the client secret shows masked");
    QVERIFY(!detail.contains(QStringLiteral("code_verifier")));
}

QTEST_MAIN(tst_SignIn)
#include "tst_signin.moc"
