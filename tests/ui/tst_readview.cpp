// Reading resources in the window, on the real demo server, driven as a person would (offscreen):
// Ctrl+R on a resource shows its text and its cache hints as received; its short TTL runs out and
// the bar repaints as expired; "Re-read when it expires" reads it again; an unknown URI shows its
// error where it happened; a template's variables fill in the URI that is read.
#include "listview.h"
#include "mainwindow.h"
#include "mcpclient.h"
#include "pagedlistmodel.h"
#include "pageledger.h"
#include "pagewalker.h"
#include "readview.h"
#include "resourcereads.h"
#include "rpccall.h"
#include "scriptedtransport.h"
#include "serversession.h"
#include "serverview.h"
#include "skillview.h"
#include "statuscolors.h"
#include "trafficlog.h"
#include "windowfixture.h"
#include "wraplabel.h"
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QCompleter>
#include <QDeadlineTimer>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace folio;

class tst_ReadView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void readsAResourceAndItsTtlExpires();
    void doubleClickReadsAndRereadsOnExpiry();
    void unknownUriShowsItsError();
    void readsFromATemplate();
    void emptyStateUntilARead();
    void imagesShownAndBlobsSummarised();
    void templateFieldsAreCompleted();
    void readFindingsJoinTheSessions();
    void refusedSubscriptionQuotesTheServerSafely();
    void subscribedReadGoesStaleWhenTheServerChangesIt_data();
    void subscribedReadGoesStaleWhenTheServerChangesIt();
    void aSkillIsOpenedAndLoaded_data();
    void aSkillIsOpenedAndLoaded();
    void aSkillsFolderIsWalkedInATabOfItsOwn();

private:
    // The demo server with reads whose TTL is short enough to watch (ttlMs 1500).
    ListView *openDemo(const QString &listId, const QStringList &extra = {});
    ReadView *readView() { return m_fixture.serverView()->readView(); }
    // Waits for the rows of a list's first page.
    bool waitForRows(ListView *list);
    // The skills list's entry whose frontmatter name is name, paging on until it is found.
    static QJsonObject skillItem(ListView *list, const QString &name);

    // A session on a scripted 2026 server (no window): handler answers every request but the
    // handshake.
    std::unique_ptr<ServerSession> scriptedSession(ScriptedTransport::Handler handler,
                                                   const QJsonObject &capabilities);
    ScriptedTransport *m_transport = nullptr;
    qint64 m_now = 1000000;
    // Moves the injected clock past a read's TTL and lets the clock fire.
    void advance(qint64 ms)
    {
        m_now += ms;
        m_fixture.clock()->processDue();
    }

    WindowFixture m_fixture;
};

void tst_ReadView::initTestCase()
{
    WindowFixture::initSettings("tst_readview");
}

void tst_ReadView::cleanup()
{
    m_fixture.reset();
}

ListView *tst_ReadView::openDemo(const QString &listId, const QStringList &extra)
{
    // The TTLs count down on an injected time: expiry is asked for, not waited for, whatever TTL
    // the demo server gives its reads.
    m_fixture.makeClock()->setTimeSource([this] { return m_now; });
    return m_fixture.openDemoList(QStringList{QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                              QStringLiteral("--list"),
                                              QStringLiteral("resources=healthy,ttlMs=1500")} +
                                      extra,
                                  listId);
}

QJsonObject tst_ReadView::skillItem(ListView *list, const QString &name)
{
    QJsonObject item;
    (void)QTest::qWaitFor(
        [list, &item, &name] {
            for (int row = 0; row < list->model()->rowCount(); ++row) {
                const QJsonObject i = list->model()->item(row);
                if (i.value(QStringLiteral("frontmatter")).toObject().value(QStringLiteral("name")) == name)
                    item = i;
            }
            if (item.isEmpty() && list->model()->canFetchMore({}))
                list->model()->fetchMore({});
            return !item.isEmpty();
        },
        10000);
    return item;
}

bool tst_ReadView::waitForRows(ListView *list)
{
    return QTest::qWaitFor([list] { return list->table()->model()->rowCount() > 0; }, 10000);
}

void tst_ReadView::readsAResourceAndItsTtlExpires()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    QTableView *table = list->table();
    table->setFocus();
    table->setCurrentIndex(table->model()->index(0, 0));
    const QString uri = table->currentIndex().data(PagedListModel::IdentityRole).toString().mid(4); // "uri:…"
    QVERIFY(!uri.isEmpty());
    // Read is the table's own action: its context menu offers it first, Ctrl+R triggers it.
    QCOMPARE(table->actions().size(), 1);
    QCOMPARE(table->actions().first()->text(), QStringLiteral("Read"));
    QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier);

    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible()); // the Reads tab came to the front
    QCOMPARE(view->currentRow(), 0);
    ResourceReads *reads = view->reads();
    QCOMPARE(reads->record(0).uri, uri);
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).state, PageRecord::State::Fresh, 5000);
    QTRY_VERIFY(!view->shownTexts().isEmpty());
    QVERIFY(view->shownTexts().first().contains(QStringLiteral("\"")));
    const ReadRecord &r = reads->record(0);
    const QString asReceived = QStringLiteral("ttlMs %1 · cacheScope %2 (as received)")
                                   .arg(r.hints.ttlMs.toInteger())
                                   .arg(r.hints.cacheScope.toString());
    QCOMPARE(view->hintsLabel()->text(), asReceived);
    QVERIFY(r.effectiveTtlMs > 0);
    QCOMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Fresh);
    QVERIFY(view->ttlBar()->look().text.startsWith(QStringLiteral("fresh · expires in")));

    // Its TTL runs out on the session's clock: the bar repaints grey, as an expired chip's.
    advance(r.effectiveTtlMs - 1);
    QCOMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Fresh);
    advance(1);
    QTRY_COMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Expired);
    QCOMPARE(reads->record(0).state, PageRecord::State::Expired);
    const QImage shot = view->ttlBar()->grab().toImage();
    const QRect bar = view->ttlBar()->barRect();
    const QColor painted = shot.pixelColor(shot.width() * bar.center().x() / view->ttlBar()->width(),
                                           shot.height() * bar.center().y() / view->ttlBar()->height());
    const QColor expired = StatusColors(view->ttlBar()->palette()).expired();
    QVERIFY2(qAbs(painted.red() - expired.red()) < 8 && qAbs(painted.green() - expired.green()) < 8 &&
                 qAbs(painted.blue() - expired.blue()) < 8,
             qPrintable(painted.name() + QStringLiteral(" vs ") + expired.name()));
    QCOMPARE(reads->record(0).answers, 1); // not re-read unless asked
    QVERIFY2(view->stateLabel()->text().startsWith(QStringLiteral("read once, at ")),
             qPrintable(view->stateLabel()->text()));
}

void tst_ReadView::doubleClickReadsAndRereadsOnExpiry()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    QTableView *table = list->table();
    const QRect cell = table->visualRect(table->model()->index(1, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    ResourceReads *reads = view->reads();
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).state, PageRecord::State::Fresh, 5000);
    QTest::mouseClick(view->rereadOnExpiryBox(), Qt::LeftButton, {},
                      QPoint(8, view->rereadOnExpiryBox()->height() / 2));
    QVERIFY(reads->record(0).rereadOnExpiry);
    // Expired, then read again: the contents replaced and the clock restarted.
    advance(reads->record(0).effectiveTtlMs);
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).answers, 2, 5000);
    QCOMPARE(reads->record(0).receivedMonoMs, m_now);
    QTRY_COMPARE_WITH_TIMEOUT(view->ttlBar()->look().bar, ReadTtlBar::Bar::Fresh, 3000);
    QVERIFY(view->stateLabel()->text().contains(QStringLiteral("read 2 times")));

    // Re-read by hand.
    reads->setRereadOnExpiry(0, false);
    QTRY_VERIFY(view->rereadButton()->isEnabled());
    QTest::mouseClick(view->rereadButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).answers, 3, 5000);
}

void tst_ReadView::unknownUriShowsItsError()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    ServerView *server = m_fixture.serverView();
    server->showList(ServerSession::ReadsId);
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    view->uriField()->setFocus();
    QTest::keyClicks(view->uriField(), QStringLiteral("chat://nowhere/at-all"));
    QTest::keyClick(view->uriField(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(view->reads()->record(0).state, PageRecord::State::Failed, 5000);
    QTRY_VERIFY(view->errorLabel()->isVisible());
    QVERIFY2(view->errorLabel()->text().contains(QStringLiteral("-32602")),
             qPrintable(view->errorLabel()->text()));
    QVERIFY(view->errorLabel()->text().contains(QStringLiteral("Resource not found")));
    QCOMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Failed);
    QVERIFY(view->shownTexts().isEmpty());
}

void tst_ReadView::readsFromATemplate()
{
    // A channel the demo server has, from its resources list.
    ListView *resources = openDemo(QStringLiteral("resources"));
    QVERIFY(resources);
    QVERIFY(waitForRows(resources));
    QString channel;
    for (int r = 0; r < resources->table()->model()->rowCount() && channel.isEmpty(); ++r) {
        const QString id =
            resources->table()->model()->index(r, 0).data(PagedListModel::IdentityRole).toString();
        const QString prefix = QStringLiteral("uri:chat://channels/");
        if (id.startsWith(prefix) && !id.mid(prefix.size()).contains(QLatin1Char('/')))
            channel = id.mid(prefix.size());
    }
    QVERIFY(!channel.isEmpty());
    m_fixture.serverView()->showList(QStringLiteral("templates"));
    ListView *list = m_fixture.serverView()->listView(QStringLiteral("templates"));
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    QTableView *table = list->table();
    int row = -1;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, 0).data(PagedListModel::IdentityRole).toString() ==
            QStringLiteral("uriTemplate:chat://channels/{channel}"))
            row = r;
    }
    QVERIFY(row >= 0);
    table->setFocus();
    table->setCurrentIndex(table->model()->index(row, 0));
    QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier);
    TemplateReadDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_fixture.window()->findChild<TemplateReadDialog *>()) && dialog->isVisible());
    QLineEdit *field = dialog->field(QStringLiteral("channel"));
    QVERIFY(field);
    QTest::keyClicks(field, channel);
    const QString uri = QStringLiteral("chat://channels/") + channel;
    QCOMPARE(dialog->uri(), uri);
    QTest::keyClick(field, Qt::Key_Return);
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(view->reads()->count(), 1, 3000);
    QCOMPARE(view->reads()->record(0).uri, uri);
    QCOMPARE(view->reads()->record(0).uriTemplate, QStringLiteral("chat://channels/{channel}"));
    QTRY_VERIFY_WITH_TIMEOUT(view->reads()->record(0).hasContents(), 5000);
    QTRY_VERIFY(!view->shownTexts().isEmpty());
}

void tst_ReadView::emptyStateUntilARead()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    m_fixture.serverView()->showList(ServerSession::ReadsId);
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    WrapLabel *empty = view->findChild<WrapLabel *>(QStringLiteral("emptyState"));
    QVERIFY(empty);
    QVERIFY(empty->isVisible());
    QVERIFY(empty->text().startsWith(QStringLiteral("No resource read yet.")));
    QVERIFY(!view->ttlBar()->isVisible());
}

std::unique_ptr<ServerSession> tst_ReadView::scriptedSession(ScriptedTransport::Handler handler,
                                                             const QJsonObject &capabilities)
{
    ServerConfig config;
    config.name = QStringLiteral("scripted");
    auto session = std::make_unique<ServerSession>(config, m_fixture.makeClock(), nullptr);
    session->client()->setTransportFactory([this, handler, capabilities](QObject *) {
        m_transport = new ScriptedTransport(true, handler);
        m_transport->capabilities = capabilities;
        return m_transport;
    });
    QSignalSpy connected(session->client(), &McpClient::connected);
    session->connectToServer();
    if (!connected.wait(3000))
        return nullptr;
    return session;
}

void tst_ReadView::imagesShownAndBlobsSummarised()
{
    QImage image(640, 320, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    const QByteArray zip = QByteArray(3000, 'z');
    auto session = scriptedSession(
        [png, zip](const QString &, const QJsonObject &params) {
            const QString uri = params.value(QStringLiteral("uri")).toString();
            return QJsonObject{
                {QStringLiteral("contents"),
                 QJsonArray{QJsonObject{{QStringLiteral("uri"), uri},
                                        {QStringLiteral("mimeType"), QStringLiteral("image/png")},
                                        {QStringLiteral("blob"), QString::fromLatin1(png.toBase64())}},
                            QJsonObject{{QStringLiteral("uri"), uri + QStringLiteral(".zip")},
                                        {QStringLiteral("mimeType"), QStringLiteral("application/zip")},
                                        {QStringLiteral("blob"), QString::fromLatin1(zip.toBase64())}},
                            QJsonObject{{QStringLiteral("uri"), uri + QStringLiteral(".txt")},
                                        {QStringLiteral("text"), QStringLiteral("plain words")}}}},
                {QStringLiteral("ttlMs"), 60000},
                {QStringLiteral("cacheScope"), QStringLiteral("public")}};
        },
        {{QStringLiteral("resources"), QJsonObject{}}});
    QVERIFY(session);
    ReadView view(session.get());
    view.resize(1000, 700);
    view.show();
    view.readUri(QStringLiteral("file:///logo"));
    QTRY_VERIFY(session->reads()->count() == 1 && session->reads()->record(0).hasContents());
    QLabel *picture = nullptr;
    QTRY_VERIFY((picture = view.findChild<QLabel *>(QStringLiteral("readImage"))));
    // Decoded and scaled to fit: 640×320 shown at 480×240.
    QCOMPARE(picture->pixmap().size(), QSize(480, 240));
    QCOMPARE(view.shownTexts(), QStringList{QStringLiteral("plain words")});
    QStringList summaries;
    for (const QLabel *l : view.findChildren<QLabel *>())
        summaries << l->text();
    QVERIFY2(summaries.contains(
                 QStringLiteral("image/png · %1 · 640 × 320 px").arg(McpError::sizeText(png.size()))),
             qPrintable(summaries.join(QLatin1Char('|'))));
    QVERIFY(summaries.contains(QStringLiteral("application/zip · 2.9 KiB · file:///logo.zip")));
    int saves = 0;
    for (const QPushButton *b : view.findChildren<QPushButton *>())
        saves += b->text() == QStringLiteral("Save…");
    QCOMPARE(saves, 2); // each blob, not the text
    QCOMPARE(view.hintsLabel()->text(), QStringLiteral("ttlMs 60000 · cacheScope public (as received)"));
}

void tst_ReadView::templateFieldsAreCompleted()
{
    const QString tmpl = QStringLiteral("chat://channels/{channel}/posts{?author}");
    // The last completion/complete asked (the lists' walks go on beside it).
    auto asked = std::make_shared<QJsonObject>();
    auto session = scriptedSession(
        [asked](const QString &method, const QJsonObject &params) {
            if (method != QLatin1String("completion/complete"))
                return QJsonObject{{QStringLiteral("error"),
                                    QJsonObject{{QStringLiteral("code"), -32601},
                                                {QStringLiteral("message"), QStringLiteral("no")}}}};
            *asked = params;
            const QString typed =
                params.value(QStringLiteral("argument")).toObject().value(QStringLiteral("value")).toString();
            QJsonArray values;
            for (const QString &c :
                 {QStringLiteral("general"), QStringLiteral("gems"), QStringLiteral("random")}) {
                if (c.startsWith(typed))
                    values.append(c);
            }
            return QJsonObject{
                {QStringLiteral("completion"),
                 QJsonObject{{QStringLiteral("values"), values}, {QStringLiteral("hasMore"), false}}}};
        },
        {{QStringLiteral("resources"), QJsonObject{}}, {QStringLiteral("completions"), QJsonObject{}}});
    QVERIFY(session);
    QVERIFY(session->client()->offersCompletion());
    TemplateReadDialog dialog(session->client(),
                              QJsonObject{{QStringLiteral("uriTemplate"), tmpl},
                                          {QStringLiteral("name"), QStringLiteral("posts")}});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QLineEdit *channel = dialog.field(QStringLiteral("channel"));
    QVERIFY(channel && dialog.field(QStringLiteral("author")));
    // Suggestions for the first field come before anything is typed; then as it is typed.
    QTRY_COMPARE(dialog.completer(QStringLiteral("channel"))->model()->rowCount(), 3);
    channel->setFocus();
    QTest::keyClicks(channel, QStringLiteral("ge"));
    QTRY_COMPARE(dialog.completer(QStringLiteral("channel"))->model()->rowCount(), 2);
    const QJsonObject sent = *asked;
    QCOMPARE(sent.value(QStringLiteral("ref")).toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("ref/resource")},
                          {QStringLiteral("uri"), tmpl}}));
    QCOMPARE(sent.value(QStringLiteral("argument")).toObject(),
             (QJsonObject{{QStringLiteral("name"), QStringLiteral("channel")},
                          {QStringLiteral("value"), QStringLiteral("ge")}}));
    QTest::keyClicks(channel, QStringLiteral("neral"));
    QCOMPARE(dialog.uri(), QStringLiteral("chat://channels/general/posts"));
    QTest::keyClicks(dialog.field(QStringLiteral("author")), QStringLiteral("ana b"));
    QCOMPARE(dialog.uri(), QStringLiteral("chat://channels/general/posts?author=ana%20b"));
}

// A read's findings are the session's, under resources/read: the Findings dock, the tabs and the
// server's dot count them as they count a list's.
void tst_ReadView::readFindingsJoinTheSessions()
{
    auto session = scriptedSession(
        [](const QString &method, const QJsonObject &) {
            if (method != QLatin1String("resources/read"))
                return QJsonObject{{QStringLiteral("error"),
                                    QJsonObject{{QStringLiteral("code"), -32601},
                                                {QStringLiteral("message"), QStringLiteral("no")}}}};
            return QJsonObject{{QStringLiteral("contents"), QJsonArray{}}, {QStringLiteral("ttlMs"), -1}};
        },
        {{QStringLiteral("resources"), QJsonObject{}}});
    QVERIFY(session);
    ReadView view(session.get());
    view.show();
    QSignalSpy changed(session.get(), &ServerSession::findingsChanged);
    view.readUri(QStringLiteral("chat://x"));
    QTRY_VERIFY(session->reads()->count() == 1 && session->reads()->record(0).hasContents());
    QVERIFY(!changed.isEmpty());
    QVERIFY(session->findingListIds().contains(ServerSession::ReadsId));
    QStringList ids;
    for (const Finding &f : session->findings(ServerSession::ReadsId))
        ids << f.id;
    QCOMPARE(ids, (QStringList{QStringLiteral("cache-hints-missing"), QStringLiteral("ttl-invalid")}));
    QVERIFY(session->findingCount() >= 2);
    QCOMPARE(session->worstSeverity(), Finding::Severity::Error);
    QVERIFY(view.hintsLabel()->text().startsWith(QStringLiteral("ttlMs -1 · missing cacheScope")));
}

// A server that refuses the subscription stream with markup and an escape sequence in its error:
// the read quotes it as text, the escape shown, nothing rendered.
void tst_ReadView::refusedSubscriptionQuotesTheServerSafely()
{
    const QString hostile = QStringLiteral("<b>no</b> \x1b]0;owned\x07");
    auto session = scriptedSession(
        [hostile](const QString &method, const QJsonObject &) {
            if (method == QLatin1String("subscriptions/listen"))
                return QJsonObject{
                    {QStringLiteral("error"),
                     QJsonObject{{QStringLiteral("code"), -32603}, {QStringLiteral("message"), hostile}}}};
            return QJsonObject{{QStringLiteral("contents"),
                                QJsonArray{QJsonObject{{QStringLiteral("uri"), QStringLiteral("a://b")},
                                                       {QStringLiteral("text"), QStringLiteral("x")}}}},
                               {QStringLiteral("ttlMs"), 60000},
                               {QStringLiteral("cacheScope"), QStringLiteral("public")}};
        },
        QJsonObject{{QStringLiteral("resources"), QJsonObject{{QStringLiteral("subscribe"), true}}}});
    QVERIFY(session);
    ReadView view(session.get());
    view.readUri(QStringLiteral("a://b"));
    QTRY_COMPARE(view.reads()->record(0).subscription.state, ResourceSubscription::State::Refused);
    QTRY_VERIFY(view.subscriptionLabel()->text().contains(QStringLiteral("<b>no</b>")));
    QCOMPARE(view.subscriptionLabel()->textFormat(), Qt::PlainText);
    QVERIFY2(!view.subscriptionLabel()->text().contains(QChar(0x1b)),
             qPrintable(view.subscriptionLabel()->text()));
    QVERIFY(view.subscriptionLabel()->text().contains(QStringLiteral("<U+001B>")));
}

void tst_ReadView::subscribedReadGoesStaleWhenTheServerChangesIt_data()
{
    QTest::addColumn<QString>("era");
    QTest::newRow("2025-11-25 (resources/subscribe)") << QStringLiteral("legacy");
    QTest::newRow("2026-07-28 (subscriptions/listen)") << QStringLiteral("modern");
}

// Issue 34: a read open in the window subscribes to its resource; when the demo server's
// update_post changes the post, the read goes stale at once, says why, and a re-read shows the new
// text. Closing it unsubscribes.
void tst_ReadView::subscribedReadGoesStaleWhenTheServerChangesIt()
{
    QFETCH(QString, era);
    ListView *list = openDemo(QStringLiteral("resources"), {QStringLiteral("--era"), era});
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    ReadView *view = readView();
    const QString uri = QStringLiteral("chat://posts/p00001");
    view->readUri(uri);
    ResourceReads *reads = view->reads();
    McpClient *client = reads->client();
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).subscription.state, ResourceSubscription::State::Active, 5000);
    QCOMPARE(view->subscriptionLabel()->text(),
             QStringLiteral("subscribed: the server says when it changes"));
    QVERIFY(view->subscriptionLabel()->isVisibleTo(view));
    QVERIFY(!view->shownTexts().isEmpty());
    QVERIFY(!view->shownTexts().first().contains(QStringLiteral("edited in the test")));
    QVERIFY(reads->record(0).staleReason.isEmpty());
    const ReadTtlBar::Bar before = view->ttlBar()->look().bar; // fresh (2026), or the legacy track
    QCOMPARE(before, era == QLatin1String("legacy") ? ReadTtlBar::Bar::Legacy : ReadTtlBar::Bar::Fresh);

    // Someone changes the post: the server says so, and the read is stale before its TTL runs out.
    RpcCall *call =
        client->callTool(QStringLiteral("update_post"),
                         QJsonObject{{QStringLiteral("post_id"), QStringLiteral("p00001")},
                                     {QStringLiteral("message"), QStringLiteral("edited in the test")}});
    QSignalSpy answered(call, &RpcCall::finished);
    QVERIFY(answered.wait(5000));
    QVERIFY(!call->isError());
    QTRY_VERIFY_WITH_TIMEOUT(!reads->record(0).staleReason.isEmpty(), 5000);
    QCOMPARE(reads->record(0).state, PageRecord::State::Stale);
    QCOMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Stale); // amber, in either era
    QCOMPARE(view->ttlBar()->look().text, QStringLiteral("stale: the server says it changed"));

    // Re-read: the new text.
    view->rereadButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).answers, 2, 5000);
    QTRY_VERIFY(view->shownTexts().first().contains(QStringLiteral("edited in the test")));
    QCOMPARE(reads->record(0).subscription.state, ResourceSubscription::State::Active);
    QVERIFY(reads->record(0).staleReason.isEmpty());

    // Close: forgotten, and unsubscribed.
    view->closeButton()->click();
    QCOMPARE(reads->count(), 0);
    QCOMPARE(client->resourceSubscription(uri).state, ResourceSubscription::State::None);
    QCOMPARE(view->currentRow(), -1);
}

// Issue 34, skills (SEP-2640): the demo server's skills are a list tab of their own (skills/list
// walked as every list is); opening one reads nothing; Load reads its files and checks each against
// the entry. On the tour every file matches; on skills-tampered, weekly-digest's SKILL.md does not
// match its digest, so the skill is rejected, its text never shown and its other files never read.
void tst_ReadView::aSkillIsOpenedAndLoaded_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("loads");
    QTest::newRow("tour: verified") << QStringLiteral("tour") << true;
    QTest::newRow("skills-tampered: digest differs") << QStringLiteral("skills-tampered") << false;
}

void tst_ReadView::aSkillIsOpenedAndLoaded()
{
    QFETCH(QString, scenario);
    QFETCH(bool, loads);
    ListView *list =
        m_fixture.openDemoList({QStringLiteral("--scenario"), scenario}, QStringLiteral("skills"));
    QVERIFY2(list, "no skills tab");
    const QJsonObject item = skillItem(list, QStringLiteral("weekly-digest"));
    QVERIFY(!item.isEmpty());
    // The Name column reads the entry's frontmatter.
    QCOMPARE(list->model()->source().columns().first().header, QStringLiteral("Name"));
    McpClient *client = m_fixture.serverView()->session()->client();
    auto readsSent = [client] {
        int n = 0;
        for (const TrafficLog::Entry &e : client->trafficLog()->entries())
            n +=
                e.method == QLatin1String("resources/read") && e.direction == TrafficLog::Direction::Outgoing;
        return n;
    };
    SkillView *view = m_fixture.serverView()->openSkillView(*SkillEntry::fromJson(item));
    QVERIFY(view);
    QCOMPARE(readsSent(), 0); // opening a skill reads nothing of it
    QVERIFY(view->filesTree()->topLevelItemCount() >= 2);
    QCOMPARE(view->filesTree()->topLevelItem(0)->text(3), QStringLiteral("not read"));
    QTest::mouseClick(view->loadButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->load() && view->load()->outcome() != SkillLoad::Outcome::Running, 5000);
    if (loads) {
        QCOMPARE(view->load()->outcome(), SkillLoad::Outcome::Loaded);
        QVERIFY(view->outcomeLabel()->text().startsWith(QLatin1String("Loaded")));
        QVERIFY(view->skillText()->toPlainText().contains(QLatin1String("name: weekly-digest")));
        QCOMPARE(view->filesTree()->topLevelItem(0)->text(3), QStringLiteral("verified"));
        QCOMPARE(readsSent(), view->filesTree()->topLevelItemCount());
    } else {
        QCOMPARE(view->load()->outcome(), SkillLoad::Outcome::Rejected);
        QVERIFY2(view->outcomeLabel()->text().contains(QLatin1String("digest")),
                 qPrintable(view->outcomeLabel()->text()));
        QVERIFY(view->skillText()->toPlainText().isEmpty());
        QCOMPARE(view->filesTree()->topLevelItem(0)->text(3), QStringLiteral("digest differs"));
        QCOMPARE(readsSent(), 1); // SKILL.md only
    }
    view->close();
}

void tst_ReadView::aSkillsFolderIsWalkedInATabOfItsOwn()
{
    ListView *skills = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("tour")},
                                              QStringLiteral("skills"));
    QVERIFY2(skills, "no skills tab");
    const QJsonObject item = skillItem(skills, QStringLiteral("triage-posts"));
    QVERIFY(!item.isEmpty());
    ServerView *server = m_fixture.serverView();
    ServerSession *session = server->session();
    SkillView *view = server->openSkillView(*SkillEntry::fromJson(item));
    QVERIFY(view);
    QVERIFY2(view->folderButton()->isEnabled(), qPrintable(view->folderButton()->toolTip()));

    // Open Folder: the folder is a list of the server's window, its first page asked for.
    QTest::mouseClick(view->folderButton(), Qt::LeftButton);
    const QString id = QStringLiteral("directory:skill://folio-chat/triage-posts");
    QCOMPARE(server->currentListId(), id);
    auto folders = [server] {
        return server->listIds().filter(QRegularExpression(QStringLiteral("^directory:"))).size();
    };
    QCOMPARE(folders(), 1);
    auto *tabs = server->findChild<QTabWidget *>(QStringLiteral("listTabs"));
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("triage-posts/"));
    QVERIFY(tabs->tabToolTip(tabs->currentIndex()).contains(QLatin1String("resources/directory/read")));
    ListView *folder = server->currentList();
    QVERIFY(folder);
    PageWalker *walker = folder->model()->walker();
    walker->fetchAll();
    QTRY_VERIFY_WITH_TIMEOUT(walker->isComplete(), 10000);
    // SKILL.md and two folders, two a page: two pages, each on the strip's ledger.
    QCOMPARE(folder->model()->rowCount(), 3);
    QCOMPARE(walker->ledger()->rowCount(), 2);
    QVERIFY(session->findings(id).isEmpty());
    QStringList names;
    for (int row = 0; row < folder->model()->rowCount(); ++row)
        names << folder->model()->item(row).value(QStringLiteral("name")).toString();
    QCOMPARE(names, (QStringList{QStringLiteral("SKILL.md"), QStringLiteral("references"),
                                 QStringLiteral("templates")}));
    // Asked again, the same tab comes forward: no second walk.
    server->showList(QStringLiteral("skills"));
    QTest::mouseClick(view->folderButton(), Qt::LeftButton);
    QCOMPARE(server->currentListId(), id);
    QCOMPARE(folders(), 1);

    // A folder in the folder opens in a tab of its own.
    folder->table()->setCurrentIndex(folder->model()->index(1, 0));
    Q_EMIT folder->table()->doubleClicked(folder->table()->currentIndex());
    const QString sub = QStringLiteral("directory:skill://folio-chat/triage-posts/references");
    QCOMPARE(server->currentListId(), sub);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("references/"));
    QTRY_COMPARE_WITH_TIMEOUT(server->currentList()->model()->rowCount(), 2, 10000);

    // Each closes with its tab's button; the server's own lists have none.
    int closeButtons = 0;
    for (int i = 0; i < tabs->count(); ++i)
        closeButtons += tabs->tabBar()->tabButton(i, QTabBar::RightSide) != nullptr;
    QCOMPARE(closeButtons, 2);
    auto *close =
        qobject_cast<QToolButton *>(tabs->tabBar()->tabButton(tabs->currentIndex(), QTabBar::RightSide));
    QVERIFY(close);
    QVERIFY(close->accessibleName().contains(QLatin1String("references")));
    close->click();
    QTRY_VERIFY(!server->listIds().contains(sub));
    QVERIFY(server->listIds().contains(id));
    QVERIFY(!session->existingModel(sub));
    view->close();
}

QTEST_MAIN(tst_ReadView)
#include "tst_readview.moc"
