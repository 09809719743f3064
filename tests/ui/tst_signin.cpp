#include "authorizer.h"
#include "jose.h"
#include "machinesignindialog.h"
#include "mainwindow.h"
#include "oauthflow.h"
#include "pagedlistmodel.h"
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
#include <QDirIterator>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
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
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>

#include <optional>

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
    void aDpopSignInShowsTheProofDecodedNeverTheKey_data();
    void aDpopSignInShowsTheProofDecodedNeverTheKey();

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

void tst_SignIn::aDpopSignInShowsTheProofDecodedNeverTheKey_data()
{
    QTest::addColumn<QString>("dpop");
    QTest::newRow("dpop") << QStringLiteral("dpop");
    // The token endpoint and /mcp each answer use_dpop_nonce first: the proof is sent again with it.
    QTest::newRow("nonce") << QStringLiteral("dpop=nonce");
}

// Signing in through the window against an authorization server that issues DPoP-bound tokens
// (the demo server's --oauth dpop, which checks proofs on its own, not with Folio's code): the
// steps say DPoP, the token step shows the proof decoded (a public key, never its private half),
// the server then takes the tools/list sent with "Authorization: DPoP" and a proof, and the private
// key reaches no view, file or log.
void tst_SignIn::aDpopSignInShowsTheProofDecodedNeverTheKey()
{
    QFETCH(QString, dpop);
    const bool nonce = dpop.endsWith(QLatin1String("nonce"));
    g_messages.clear();
    QVERIFY(startServer({QStringLiteral("jwt"), dpop}));
    openWindow();
    QVERIFY(authorizer());
    QTRY_VERIFY_WITH_TIMEOUT(signedIn(), 30000);
    ServerSession *session = m_fixture.servers()->session(0);
    const AuthRecord record = authorizer()->record();
    QCOMPARE(record.tokens.tokenType, QStringLiteral("DPoP"));
    QVERIFY(record.isDpopBound());
    QVERIFY(record.dpopKeyPem.contains("PRIVATE KEY"));

    // The window lists the tools: the resource server took the DPoP token and its proofs.
    PagedListModel *tools = session->listModel(QStringLiteral("tools"));
    QVERIFY(tools);
    QTRY_VERIFY_WITH_TIMEOUT(tools->rowCount() > 0, 20000);
    QCOMPARE(session->state(), McpClient::State::Connected);

    SignInPanel *panel = m_fixture.window()->signInPanel();
    QTreeWidget *tree = panel->steps();
    QTreeWidgetItem *flowItem = tree->topLevelItem(tree->topLevelItemCount() - 1);
    QTRY_COMPARE(flowItem->text(1), QStringLiteral("signed in"));
    const OAuthFlow *flow = authorizer()->flow();
    QVERIFY(flow);
    auto stepIndex = [flow](AuthStep::Kind kind) {
        for (int i = 0; i < flow->steps().size(); ++i) {
            if (flow->steps().at(i).kind == kind)
                return i;
        }
        return -1;
    };
    auto verdictDetail = [flow](int step, const QString &rule) -> std::optional<AuthVerdict> {
        for (const AuthVerdict &v : flow->steps().at(step).verdicts) {
            if (v.rule == rule)
                return v;
        }
        return std::nullopt;
    };
    // Every step done, the last one the request sent again with the token.
    QTRY_VERIFY(stepIndex(AuthStep::Kind::AuthorizedRequest) >= 0);
    for (int i = 0; i < flowItem->childCount(); ++i)
        QVERIFY2(flowItem->child(i)->data(0, SignInPanel::StateRole).toInt() == int(AuthStep::State::Done),
                 qPrintable(flowItem->child(i)->text(0) + QStringLiteral(" is not done")));

    // The metadata step: DPoP, bound to a key of Folio's.
    const int metadataStep = stepIndex(AuthStep::Kind::ServerMetadata);
    QVERIFY(metadataStep >= 0);
    const auto dpopVerdict = verdictDetail(metadataStep, QStringLiteral("DPoP"));
    QVERIFY(dpopVerdict);
    QVERIFY(dpopVerdict->passed);
    QVERIFY2(dpopVerdict->detail.contains(QStringLiteral("ES256")), qPrintable(dpopVerdict->detail));

    // The token step: token type DPoP; the proof decoded, its jwk public.
    const int tokenStep = stepIndex(AuthStep::Kind::Token);
    QVERIFY(tokenStep >= 0);
    const auto typeVerdict = verdictDetail(tokenStep, QStringLiteral("token type DPoP or Bearer"));
    QVERIFY(typeVerdict);
    QVERIFY(typeVerdict->passed);
    QCOMPARE(typeVerdict->detail, QStringLiteral("DPoP"));
    QCOMPARE(bool(verdictDetail(tokenStep, QStringLiteral("DPoP nonce"))), nonce);
    QVERIFY(!verdictDetail(tokenStep, QStringLiteral("token bound to the DPoP key")));
    // The resource server's nonce too: the request sent again with it is the last step, done.
    const int requestStep = stepIndex(AuthStep::Kind::AuthorizedRequest);
    QCOMPARE(bool(verdictDetail(requestStep, QStringLiteral("DPoP nonce"))), nonce);
    QVERIFY2(flow->steps().at(requestStep).summary.endsWith(QLatin1String("HTTP 200")),
             qPrintable(flow->steps().at(requestStep).summary));
    const QJsonObject proof =
        flow->steps().at(tokenStep).details.value(QStringLiteral("dpop_proof")).toObject();
    const QJsonObject header = proof.value(QStringLiteral("header")).toObject();
    const QJsonObject claims = proof.value(QStringLiteral("claims")).toObject();
    QCOMPARE(header.value(QStringLiteral("typ")).toString(), QStringLiteral("dpop+jwt"));
    QCOMPARE(header.value(QStringLiteral("alg")).toString(), QStringLiteral("ES256"));
    const QJsonObject jwk = header.value(QStringLiteral("jwk")).toObject();
    QCOMPARE(jwk.value(QStringLiteral("kty")).toString(), QStringLiteral("EC"));
    QCOMPARE(jwk.value(QStringLiteral("crv")).toString(), QStringLiteral("P-256"));
    QVERIFY(!jwk.value(QStringLiteral("x")).toString().isEmpty());
    QVERIFY(!jwk.value(QStringLiteral("y")).toString().isEmpty());
    QVERIFY(!jwk.contains(QStringLiteral("d")));
    QCOMPARE(claims.value(QStringLiteral("htm")).toString(), QStringLiteral("POST"));
    QVERIFY(claims.value(QStringLiteral("htu")).toString().endsWith(QLatin1String("/token")));
    QCOMPARE(claims.contains(QStringLiteral("nonce")), nonce);
    // The access token's claims (jwt) name the same key: cnf.jkt is the key's thumbprint.
    const QJsonObject cnf = flow->steps().at(tokenStep).jwtClaims.value(QStringLiteral("cnf")).toObject();
    QCOMPARE(cnf.value(QStringLiteral("jkt")).toString(),
             SigningKey::fromPem(record.dpopKeyPem).thumbprint());

    // As the dock shows it: found, decoded; the key's private half nowhere, token revealed or not.
    tree->setCurrentItem(flowItem->child(tokenStep));
    QString shown = panel->detail()->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("dpop_proof")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("dpop+jwt")), qPrintable(shown));
    QVERIFY2(shown.contains(jwk.value(QStringLiteral("x")).toString()), qPrintable(shown));
    QVERIFY(!shown.contains(QStringLiteral("\"d\"")));
    panel->revealBox()->setChecked(true);
    for (int i = 0; i < flowItem->childCount(); ++i) {
        tree->setCurrentItem(flowItem->child(i));
        if (panel->revealBox()->isEnabled())
            panel->revealBox()->setChecked(true);
        shown += panel->detail()->toPlainText() + panel->statusText();
    }
    // The PEM's base64 body, a line of it: the key in any wrapping.
    const QList<QByteArray> pemLines = record.dpopKeyPem.split('\n');
    QVERIFY(pemLines.size() > 2);
    const QByteArray keyLine = pemLines.at(1);
    QVERIFY(keyLine.size() >= 40);
    auto leaks = [&](const QByteArray &text) {
        return text.contains("PRIVATE KEY") || text.contains(keyLine) || text.contains(keyLine.left(24));
    };
    QVERIFY(leaks(record.dpopKeyPem)); // the check finds the key where it is
    QVERIFY2(!leaks(shown.toUtf8()), "the private key shows in the Sign-in dock");

    // Nor in any file: the settings and the test profile's directories, the traffic log as
    // exported, a report of the server.
    QSettings().sync();
    QByteArray written;
    QStringList roots{QFileInfo(QSettings().fileName()).absolutePath()};
    for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation,
                          QStandardPaths::CacheLocation, QStandardPaths::GenericConfigLocation})
        roots.append(QStandardPaths::writableLocation(location));
    QStringList read;
    for (const QString &root : std::as_const(roots)) {
        QDirIterator files(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            QFile f(path);
            if (read.contains(path) || f.size() > 16 * 1024 * 1024 || !f.open(QIODevice::ReadOnly))
                continue;
            read.append(path);
            written += f.readAll();
        }
    }
    QVERIFY2(!read.isEmpty(), qPrintable(roots.join(u' ')));
    const TrafficLog *log = session->client()->trafficLog();
    QVERIFY(!log->entries().isEmpty());
    written += TrafficExport::toJsonLines(log->entries());
    written += QJsonDocument(TrafficExport::toHar(log->httpExchanges(), QStringLiteral("test"))).toJson();
    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("report.json"));
    QString error;
    QVERIFY2(m_fixture.window()->exportReport(report, &error), qPrintable(error));
    QFile f(report);
    QVERIFY(f.open(QIODevice::ReadOnly));
    written += f.readAll();
    QVERIFY2(!leaks(written), "the private key reached a file");
    // Nor the log (debug included).
    const QByteArray logged = g_messages.join(u'\n').toUtf8();
    QVERIFY(!logged.isEmpty());
    QVERIFY2(!leaks(logged), "the private key reached the log");
    QVERIFY(!logged.contains(record.tokens.accessToken.toUtf8()));
}

QTEST_MAIN(tst_SignIn)
#include "tst_signin.moc"
