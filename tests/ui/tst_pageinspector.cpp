#include "elidedlabel.h"
#include "pagedfixture.h"
#include "pageinspector.h"
#include "pageledger.h"
#include "secretmask.h"
#include "testsettings.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace folio;
using Script = PagedFixture::Script;

namespace {

const QString &NoCursor = PagedFixture::NoCursor;
const QString Opaque = QStringLiteral("opaque.v2|Zm9v~");

QString cursorAt(int offset)
{
    return PagedFixture::jsonCursor(QJsonObject{{QStringLiteral("o"), offset}});
}

// Page 1 -> base64url JSON cursor -> page 2 -> an undecodable cursor -> page 3 (refused).
Script script()
{
    return {{NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), cursorAt(10), 45000)},
            {cursorAt(10),
             PagedFixture::page(PagedFixture::tools(10, 10), Opaque, 45000, QStringLiteral("private"))},
            {Opaque, PagedFixture::rpcError(-32602, QStringLiteral("Invalid cursor"))}};
}

// The scripted list walked to its end, and the inspector shown on page row of it.
bool showWalkedPage(PagedFixture &f, PageInspector &inspector, int row)
{
    if (!f.connect(script()) || !f.walkAll())
        return false;
    inspector.setPage(f.model.get(), row);
    inspector.show();
    return QTest::qWaitForWindowExposed(&inspector);
}

template<typename T> T *child(const QWidget &w, const char *name)
{
    T *found = w.findChild<T *>(QString::fromLatin1(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

} // namespace

// The page inspector on a scripted list: empty state, raw and decoded cursors, masking, hints as sent
// with a live countdown, errors, the legacy case, and the three actions.
class tst_PageInspector : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void emptyState();
    void decodedCursors();
    void opaqueCursorAndFailedPage();
    void maskToggle();
    void hintsCountDownLive();
    void legacyPageHasNoHints();
    void copyAsJson();
    void refetchAndRestart();
    void copyAsJsonMasksKnownSecrets(); // last: it adds a secret to the process's list
};

void tst_PageInspector::initTestCase()
{
    testsupport::useEmptyTestSettings("tst_pageinspector"); // the inspector remembers whether trees are shown
}

void tst_PageInspector::emptyState()
{
    PageInspector inspector;
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    QVERIFY(inspector.isEmpty());
    QVERIFY(child<QLabel>(inspector, "emptyState")->isVisible());
    QCOMPARE(child<QLabel>(inspector, "emptyState")->text(),
             QStringLiteral("Select a page in the strip to inspect it"));
    QVERIFY(inspector.pageJson().isEmpty());

    PagedFixture f;
    QVERIFY(f.connect(script()));
    inspector.setPage(f.model.get(), 5); // no such row yet
    QVERIFY(inspector.isEmpty());
}

void tst_PageInspector::decodedCursors()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 1));
    QVERIFY(!child<QLabel>(inspector, "emptyState")->isVisible());
    QCOMPARE(child<QLabel>(inspector, "title")->text(), QStringLiteral("Page 2"));

    // The request cursor: raw, then what it decodes to, as a tree kind -> json.
    QCOMPARE(child<QLineEdit>(inspector, "requestCursorRaw")->text(), cursorAt(10));
    QVERIFY(child<QLineEdit>(inspector, "requestCursorRaw")->isReadOnly());
    QCOMPARE(child<QLabel>(inspector, "requestCursorSummary")->text(), QStringLiteral("\u2192 {\"o\":10}"));
    QVERIFY(!child<QLabel>(inspector, "requestCursorOpaque")->isVisible());
    // The tree is behind the arrow, shut at first; opening it opens both cursors' and is remembered.
    auto *tree = child<QTreeView>(inspector, "requestCursorTree");
    QVERIFY(!tree->isVisible());
    auto *expand = child<QToolButton>(inspector, "requestCursorExpand");
    QVERIFY(expand->isVisible());
    expand->click();
    QVERIFY(tree->isVisible());
    QVERIFY(inspector.decodedTreesShown());
    QVERIFY(child<QToolButton>(inspector, "nextCursorExpand")->isChecked());
    QVERIFY(PageInspector().decodedTreesShown());                             // remembered
    QVERIFY(!child<QToolButton>(inspector, "nextCursorExpand")->isVisible()); // opaque: nothing to open
    const QAbstractItemModel *model = tree->model();
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex kind = model->index(0, 0);
    QCOMPARE(kind.data().toString(), QStringLiteral("base64url"));
    const QModelIndex json = model->index(0, 0, kind);
    QCOMPARE(json.data().toString(), QStringLiteral("json"));
    QCOMPARE(model->index(0, 0, json).data().toString(), QStringLiteral("o"));
    QCOMPARE(model->index(0, 1, json).data().toString(), QStringLiteral("10"));
    QVERIFY(tree->isExpanded(json));

    // The next cursor of page 2 does not decode: an info line, not an error.
    QCOMPARE(child<QLineEdit>(inspector, "nextCursorRaw")->text(), Opaque);
    QVERIFY(child<QLabel>(inspector, "nextCursorOpaque")->isVisible());
    QCOMPARE(child<QLabel>(inspector, "nextCursorOpaque")->text(),
             QStringLiteral("opaque: not base64: '.' at offset 6"));
    QVERIFY(!child<QTreeView>(inspector, "nextCursorTree")->isVisible());

    // The first page sent no cursor.
    inspector.setPage(f.model.get(), 0);
    QVERIFY(child<QLineEdit>(inspector, "requestCursorRaw")->text().isEmpty());
    QCOMPARE(child<QLineEdit>(inspector, "requestCursorRaw")->placeholderText(),
             QStringLiteral("(none: the first page)"));
    QVERIFY(!child<QTreeView>(inspector, "requestCursorTree")->isVisible());
    QCOMPARE(child<QLabel>(inspector, "scope")->text(), QStringLiteral("\"public\""));
}

void tst_PageInspector::opaqueCursorAndFailedPage()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 2));
    QCOMPARE(child<QLineEdit>(inspector, "requestCursorRaw")->text(), Opaque);
    QVERIFY(child<QLabel>(inspector, "requestCursorOpaque")
                ->text()
                .startsWith(QStringLiteral("opaque: not base64")));
    auto *error = child<QLabel>(inspector, "error");
    QVERIFY(error->isVisible());
    QVERIFY(error->text().contains(QStringLiteral("-32602")));
    QVERIFY(error->text().contains(QStringLiteral("Invalid cursor")));
    QCOMPARE(child<QLabel>(inspector, "ttl")->text(), QStringLiteral("no result"));
    QVERIFY(!child<QLabel>(inspector, "scope")->isVisible());
    const QList<QLabel *> findings =
        child<QWidget>(inspector, "findings")->findChildren<QLabel *>(QStringLiteral("findingText"));
    QCOMPARE(findings.size(), 1);
    QVERIFY(findings.first()->text().contains(QStringLiteral("page-error")));
    // A failed page has nothing to refetch; the walk's failed last page can be asked again.
    auto *retry = child<QPushButton>(inspector, "refetch");
    QCOMPARE(retry->text(), QStringLiteral("Retry page"));
    QVERIFY(retry->isEnabled());
    QSignalSpy retried(&inspector, &PageInspector::pageRetried);
    const int rowsBefore = f.model->ledger()->rowCount();
    retry->click();
    QCOMPARE(retried.size(), 1);
    QCOMPARE(retried.first().at(0).toInt(), rowsBefore); // the new attempt's ledger row
    QCOMPARE(f.model->ledger()->page(2).state, PageRecord::State::Discarded);
    QCOMPARE(f.model->ledger()->page(2).discardReason, QStringLiteral("retried"));
    QTRY_COMPARE(f.model->ledger()->page(rowsBefore).state, PageRecord::State::Failed); // still refused
    inspector.setPage(f.model.get(), rowsBefore);
    QVERIFY(retry->isEnabled());
}

void tst_PageInspector::maskToggle()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 1));
    inspector.setDecodedTreesShown(true);
    auto *mask = child<QCheckBox>(inspector, "maskCursors");
    QVERIFY(!mask->isChecked());
    QTest::mouseClick(mask, Qt::LeftButton, {}, QPoint(6, mask->height() / 2));
    QVERIFY(inspector.cursorsMasked());
    QCOMPARE(child<QLineEdit>(inspector, "requestCursorRaw")->text(), maskCursor(cursorAt(10)));
    QVERIFY(!child<QTreeView>(inspector, "requestCursorTree")->isVisible());
    inspector.setCursorsMasked(false);
    QVERIFY(!mask->isChecked());
    QCOMPARE(child<QLineEdit>(inspector, "requestCursorRaw")->text(), cursorAt(10));
    QVERIFY(child<QTreeView>(inspector, "requestCursorTree")->isVisible());
}

void tst_PageInspector::hintsCountDownLive()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 1));
    auto *ttl = child<QLabel>(inspector, "ttl");
    QCOMPARE(ttl->text(), QStringLiteral("45000 (as sent) \u00b7 expires in 45 s"));
    QCOMPARE(child<QLabel>(inspector, "scope")->text(), QStringLiteral("\"private\""));

    f.now += 5000; // the countdown follows the model's clock
    QTRY_COMPARE(ttl->text(), QStringLiteral("45000 (as sent) \u00b7 expires in 40 s"));
    f.advance(41000); // expired: the ledger says so, the inspector follows at once
    QCOMPARE(ttl->text(), QStringLiteral("45000 (as sent) \u00b7 expired 1 s ago"));
    QCOMPARE(child<ElidedLabel>(inspector, "state")->text(), QStringLiteral("expired"));
}

void tst_PageInspector::legacyPageHasNoHints()
{
    PagedFixture f;
    QVERIFY(f.connect(Script{{NoCursor, PagedFixture::page(PagedFixture::tools(0, 3), QJsonValue::Undefined,
                                                           QJsonValue::Undefined, QJsonValue::Undefined)}},
                      false));
    QVERIFY(f.walkAll());
    PageInspector inspector;
    inspector.setPage(f.model.get(), 0);
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    QCOMPARE(child<QLabel>(inspector, "ttl")->text(), QStringLiteral("no hints (legacy era)"));
    QVERIFY(!child<QLabel>(inspector, "scope")->isVisible());
    QVERIFY(!child<QWidget>(inspector, "findings")->isVisible());
    QCOMPARE(child<QLineEdit>(inspector, "nextCursorRaw")->placeholderText(),
             QStringLiteral("absent: the end of the list"));
}

void tst_PageInspector::copyAsJson()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 1));
    QSignalSpy status(&inspector, &PageInspector::statusMessage);
    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(child<QPushButton>(inspector, "copy"), Qt::LeftButton);
    QCOMPARE(status.count(), 1);
    QVERIFY(status.first().at(0).toString().startsWith(QStringLiteral("Page 2 copied as JSON")));

    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QVERIFY(doc.isObject());
    const QJsonObject o = doc.object();
    QCOMPARE(o.value(QStringLiteral("page")).toInt(), 2); // "Page 2", as the status bar says
    QCOMPARE(o.value(QStringLiteral("cursor")).toString(), cursorAt(10));
    QCOMPARE(o.value(QStringLiteral("nextCursor")).toString(), Opaque);
    QCOMPARE(o.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("private"));
    QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("fresh"));
    const QJsonArray items = o.value(QStringLiteral("items")).toArray();
    QCOMPARE(items.size(), 10);
    QCOMPARE(items.first().toObject().value(QStringLiteral("name")).toString(), QStringLiteral("tool_010"));
    QCOMPARE(o.value(QStringLiteral("cursorDecoded")).toObject().value(QStringLiteral("summary")).toString(),
             QStringLiteral("{\"o\":10}"));
    QVERIFY(!o.contains(QStringLiteral("nextCursorDecoded"))); // opaque: nothing to add

    // A failed page copies its error and no items.
    inspector.setPage(f.model.get(), 2);
    const QJsonObject failed = inspector.pageJson();
    QCOMPARE(failed.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32602);
    QVERIFY(!failed.contains(QStringLiteral("items")));
}

void tst_PageInspector::refetchAndRestart()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 0));
    auto *refetch = child<QPushButton>(inspector, "refetch");
    QVERIFY(refetch->isEnabled());
    QVERIFY(!child<QLabel>(inspector, "refetches")->isVisible());

    QSignalSpy received(f.model.get()->walker(), &PageWalker::pageAccepted);
    QTest::mouseClick(refetch, Qt::LeftButton);
    QCOMPARE(f.model->ledger()->page(0).state, PageRecord::State::Refetching);
    QCOMPARE(child<ElidedLabel>(inspector, "state")->text(), QStringLiteral("refetching"));
    QVERIFY(!refetch->isEnabled());
    QVERIFY(received.wait(2000));
    QCOMPARE(f.model->ledger()->page(0).refetchCount, 1);
    QVERIFY(child<QLabel>(inspector, "refetches")->isVisible());
    QCOMPARE(child<QLabel>(inspector, "refetches")->text(),
             QStringLiteral("1 \u00b7 last diff +0 \u22120 ~0"));

    QSignalSpy restarted(f.model.get()->walker(), &PageWalker::walkRestarted);
    QTest::mouseClick(child<QPushButton>(inspector, "restart"), Qt::LeftButton);
    QCOMPARE(restarted.count(), 1);
    QCOMPARE(restarted.first().at(0).toString(), QStringLiteral("discarded by the user"));
    QCOMPARE(f.model->ledger()->page(0).state, PageRecord::State::Discarded);
    QCOMPARE(child<QLabel>(inspector, "title")->text(), QStringLiteral("Page 1 (walk 1)"));
    QCOMPARE(child<ElidedLabel>(inspector, "state")->text(),
             QStringLiteral("discarded: discarded by the user"));
    QVERIFY(!refetch->isEnabled()); // no longer in the current walk
}

// A value the process knows as a secret (a token a server echoed into an item) never reaches the
// clipboard: Copy as JSON goes through copyToClipboard(), which masks it.
void tst_PageInspector::copyAsJsonMasksKnownSecrets()
{
    PagedFixture f;
    PageInspector inspector;
    QVERIFY(showWalkedPage(f, inspector, 1));
    QVERIFY(QJsonDocument(inspector.pageJson()).toJson().contains("tool_015"));
    SecretMask::remember(QStringLiteral("tool_015"));
    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(child<QPushButton>(inspector, "copy"), Qt::LeftButton);
    const QString copied = QGuiApplication::clipboard()->text();
    QVERIFY(!copied.isEmpty());
    QVERIFY2(!copied.contains(QStringLiteral("tool_015")), qPrintable(copied));
    QVERIFY(copied.contains(QStringLiteral("\"[redacted]\"")));
    QVERIFY(copied.contains(QStringLiteral("tool_014")));
}

QTEST_MAIN(tst_PageInspector)
#include "tst_pageinspector.moc"
