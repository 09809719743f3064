#include "trafficlog.h"
#include "trafficlogmodel.h"
#include "trafficview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

TrafficLog::Entry entry(TrafficLog::Direction direction, const QString &method, const QByteArray &text,
                        bool isError = false)
{
    TrafficLog::Entry e;
    e.direction = direction;
    e.method = method;
    e.text = text;
    e.bytes = text.size();
    e.isError = isError;
    return e;
}

} // namespace

// The traffic dock: its filter proxy (text and direction together) under QAbstractItemModelTester
// as entries arrive and the filter changes, and the selected message pretty-printed.
class tst_TrafficView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void filter_data();
    void filter();
    void filterHoldsAsEntriesArrive();
    void selectedMessageReadsPretty();
    void copySelectedRows();
    void copySelectedAsJson();
    void exportJsonLinesAndHar();

private:
    // The rows the table shows, as "<direction> <method>".
    QStringList shown() const;

    TrafficLog *m_log = nullptr;
    TrafficView *m_view = nullptr;
    QTableView *m_table = nullptr;
    QAbstractItemModelTester *m_tester = nullptr;
};

void tst_TrafficView::init()
{
    m_log = new TrafficLog(this);
    m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("tools/list"),
                        R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
    m_log->append(entry(TrafficLog::Direction::Incoming, QStringLiteral("tools/list"),
                        R"({"jsonrpc":"2.0","id":1,"result":{"tools":[]}})"));
    m_log->append(entry(TrafficLog::Direction::Incoming, QStringLiteral("tools/call"),
                        R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}})", true));
    m_log->appendDiagnostic(QStringLiteral("stderr: spawned"));
    m_view = new TrafficView;
    m_view->setLog(m_log);
    m_table = m_view->table();
    // The table's model is the filter proxy: the tester watches it from before the first filter.
    QVERIFY(m_table->model());
    m_tester = new QAbstractItemModelTester(m_table->model(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void tst_TrafficView::cleanup()
{
    delete m_tester;
    delete m_view;
    delete m_log;
    m_tester = nullptr;
    m_view = nullptr;
    m_log = nullptr;
}

QStringList tst_TrafficView::shown() const
{
    QStringList rows;
    const QAbstractItemModel *m = m_table->model();
    for (int r = 0; r < m->rowCount(); ++r)
        rows << m->index(r, TrafficLogModel::DirectionColumn).data().toString() + QLatin1Char(' ') +
                    m->index(r, TrafficLogModel::MethodColumn).data().toString();
    return rows;
}

void tst_TrafficView::filter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("direction"); // the combo box: All, Sent, Received, Errors
    QTest::addColumn<QStringList>("rows");
    const QString out = QStringLiteral("→ tools/list"), in = QStringLiteral("← tools/list"),
                  error = QStringLiteral("← tools/call"), diagnostic = QStringLiteral("· ");
    QTest::addRow("everything") << QString() << 0 << QStringList{out, in, error, diagnostic};
    QTest::addRow("sent_only") << QString() << 1 << QStringList{out};
    QTest::addRow("received_only") << QString() << 2 << QStringList{in, error};
    QTest::addRow("errors_only") << QString() << 3 << QStringList{error};
    QTest::addRow("method_any_case") << QStringLiteral("TOOLS/CALL") << 0 << QStringList{error};
    QTest::addRow("message_text") << QStringLiteral("spawned") << 0 << QStringList{diagnostic};
    QTest::addRow("text_and_direction") << QStringLiteral("tools/list") << 2 << QStringList{in};
    QTest::addRow("nothing_matches") << QStringLiteral("resources/") << 0 << QStringList{};
}

void tst_TrafficView::filter()
{
    QFETCH(QString, text);
    QFETCH(int, direction);
    QFETCH(QStringList, rows);
    auto *edit = m_view->findChild<QLineEdit *>();
    auto *combo = m_view->findChild<QComboBox *>();
    QVERIFY(edit && combo);
    QCOMPARE(combo->count(), 4);
    QCOMPARE(shown().size(), 4);
    edit->setText(text);
    combo->setCurrentIndex(direction);
    QCOMPARE(shown(), rows);
    // Cleared, everything shows again.
    edit->clear();
    combo->setCurrentIndex(0);
    QCOMPARE(shown().size(), 4);
}

void tst_TrafficView::filterHoldsAsEntriesArrive()
{
    m_view->findChild<QComboBox *>()->setCurrentIndex(3); // errors
    QCOMPARE(shown().size(), 1);
    m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("prompts/list"), "{}"));
    m_log->append(
        entry(TrafficLog::Direction::Incoming, QStringLiteral("prompts/list"), R"({"error":{}})", true));
    QTRY_COMPARE(shown(), (QStringList{QStringLiteral("← tools/call"), QStringLiteral("← prompts/list")}));
    m_log->clear();
    QCOMPARE(shown(), QStringList{});
}

void tst_TrafficView::selectedMessageReadsPretty()
{
    auto *text = m_view->findChild<QPlainTextEdit *>();
    QVERIFY(text);
    QVERIFY(text->toPlainText().isEmpty());
    m_view->findChild<QLineEdit *>()->setText(QStringLiteral("tools/call"));
    m_table->setCurrentIndex(m_table->model()->index(0, 0));
    // The filtered row maps to its own entry, shown indented.
    QVERIFY(text->toPlainText().contains(QStringLiteral("\"code\": -32602")));
    QVERIFY(text->toPlainText().contains(QLatin1Char('\n')));
}

// Copy: the selected rows' cells, tab-separated, one line per row, in the table's order.
void tst_TrafficView::copySelectedRows()
{
    QVERIFY(m_view->copyActions().copy);
    QVERIFY(m_table->actions().contains(m_view->copyActions().copy));
    m_table->selectionModel()->select(m_table->model()->index(1, 0),
                                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
    m_table->selectionModel()->select(m_table->model()->index(0, 0),
                                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
    m_view->copyActions().copy->trigger();
    const QStringList lines = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    const QStringList first = lines.at(0).split(QLatin1Char('\t'));
    QCOMPARE(first.size(), int(TrafficLogModel::ColumnCount));
    QCOMPARE(first.at(TrafficLogModel::DirectionColumn), QStringLiteral("→"));
    QCOMPARE(first.at(TrafficLogModel::MethodColumn), QStringLiteral("tools/list"));
    QCOMPARE(lines.at(1).split(QLatin1Char('\t')).at(TrafficLogModel::DirectionColumn), QStringLiteral("←"));
}

// Copy as JSON: one message as its JSON; several as an array; through the filter's row mapping.
void tst_TrafficView::copySelectedAsJson()
{
    auto *direction = m_view->findChild<QComboBox *>();
    direction->setCurrentIndex(3); // errors: one row, the third entry
    QCOMPARE(m_table->model()->rowCount(), 1);
    m_table->selectRow(0);
    m_view->copyActions().copyJson->trigger();
    const QJsonObject one = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
    QCOMPARE(one.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32602);

    direction->setCurrentIndex(0);
    m_table->selectAll();
    m_view->copyActions().copyJson->trigger();
    const QJsonArray all = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).array();
    QCOMPARE(all.size(), 4);
    QCOMPARE(all.at(0).toObject().value(QStringLiteral("method")).toString(), QStringLiteral("tools/list"));
    QCOMPARE(all.at(3).toString(), QStringLiteral("stderr: spawned")); // a diagnostic: its line
}

// Export writes the whole log whatever the filter shows, and says so; a failure is said too.
void tst_TrafficView::exportJsonLinesAndHar()
{
    QVERIFY(m_table->actions().contains(m_view->exportAction()));
    m_view->findChild<QLineEdit *>()->setText(QStringLiteral("tools/call"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("traffic.jsonl"));
    QVERIFY(m_view->exportTo(path, TrafficView::ExportFormat::JsonLines));
    QVERIFY2(m_view->exportStatus().contains(QStringLiteral("4 message")),
             qPrintable(m_view->exportStatus()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().trimmed().split('\n').size(), 4);

    HttpExchange ex;
    ex.startedMs = 1000;
    ex.finishedMs = 1010;
    ex.method = "POST";
    ex.url = QStringLiteral("http://127.0.0.1:1/mcp");
    ex.requestHeaders = {{"Authorization", "Bearer abcdef"}};
    ex.status = 202;
    m_log->appendHttp(ex);
    const QString harPath = dir.filePath(QStringLiteral("traffic.har"));
    QVERIFY(m_view->exportTo(harPath, TrafficView::ExportFormat::Har));
    QFile h(harPath);
    QVERIFY(h.open(QIODevice::ReadOnly));
    const QByteArray har = h.readAll();
    QVERIFY(!har.contains("abcdef"));
    const QJsonArray entries = QJsonDocument::fromJson(har)
                                   .object()
                                   .value(QStringLiteral("log"))
                                   .toObject()
                                   .value(QStringLiteral("entries"))
                                   .toArray();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries.first()
                 .toObject()
                 .value(QStringLiteral("response"))
                 .toObject()
                 .value(QStringLiteral("status"))
                 .toInt(),
             202);

    QVERIFY(!m_view->exportTo(dir.filePath(QStringLiteral("no/such/dir/t.jsonl")),
                              TrafficView::ExportFormat::JsonLines));
    QVERIFY2(m_view->exportStatus().contains(QStringLiteral("failed")), qPrintable(m_view->exportStatus()));
}

QTEST_MAIN(tst_TrafficView)
#include "tst_trafficview.moc"
