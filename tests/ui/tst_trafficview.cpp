#include "trafficlog.h"
#include "trafficlogmodel.h"
#include "trafficview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableView>
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

QTEST_MAIN(tst_TrafficView)
#include "tst_trafficview.moc"
