#include "trafficlog.h"
#include "trafficlogmodel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

TrafficLog::Entry entry(TrafficLog::Direction direction, const QString &method, const QByteArray &text,
                        qint64 latencyMs = -1, bool isError = false)
{
    TrafficLog::Entry e;
    e.direction = direction;
    e.method = method;
    e.id = QStringLiteral("7");
    e.text = text;
    e.bytes = text.size();
    e.latencyMs = latencyMs;
    e.isError = isError;
    return e;
}

} // namespace

// The traffic table: entries arrive in one insert per event-loop turn, the oldest leave when the
// log drops them, each column shows what its header says, and a message reads pretty-printed.
class tst_TrafficLogModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void modelTester();
    void appendsAreBatched();
    void setLogShowsWhatIsThere();
    void droppedEntriesLeaveFromTheTop();
    void columnsAndRoles();
    void prettyText_data();
    void prettyText();

private:
    TrafficLog *m_log = nullptr;
    TrafficLogModel *m_model = nullptr;
};

void tst_TrafficLogModel::init()
{
    m_log = new TrafficLog(this);
    m_model = new TrafficLogModel(this);
}

void tst_TrafficLogModel::cleanup()
{
    delete m_model;
    delete m_log;
    m_model = nullptr;
    m_log = nullptr;
}

void tst_TrafficLogModel::modelTester()
{
    QAbstractItemModelTester tester(m_model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_log->setCapacity(10);
    m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("tools/list"), "{}"));
    m_model->setLog(m_log);
    for (int i = 0; i < 12; ++i) // past the cap: drops while inserts are pending
        m_log->append(entry(TrafficLog::Direction::Incoming, QStringLiteral("tools/list"), "{}"));
    QTRY_COMPARE(m_model->rowCount(), int(m_log->entries().size()));
    m_log->clear();
    QCOMPARE(m_model->rowCount(), 0);
    m_log->appendDiagnostic(QStringLiteral("spawned"));
    TrafficLog other;
    m_model->setLog(&other);
    m_model->setLog(nullptr);
    QCOMPARE(m_model->rowCount(), 0);
}

void tst_TrafficLogModel::appendsAreBatched()
{
    m_model->setLog(m_log);
    QSignalSpy inserted(m_model, &QAbstractItemModel::rowsInserted);
    for (int i = 0; i < 3; ++i)
        m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("tools/list"), "{}"));
    QCOMPARE(m_model->rowCount(), 0); // not yet: the view hears of them on the next turn
    QVERIFY(inserted.wait(1000));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 0);
    QCOMPARE(inserted.first().at(2).toInt(), 2);
    QCOMPARE(m_model->rowCount(), 3);
}

void tst_TrafficLogModel::setLogShowsWhatIsThere()
{
    m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("initialize"), "{}"));
    m_log->append(entry(TrafficLog::Direction::Incoming, QStringLiteral("initialize"), "{}"));
    QSignalSpy reset(m_model, &QAbstractItemModel::modelReset);
    m_model->setLog(m_log);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(m_model->rowCount(), 2); // at once, not batched
    QCOMPARE(m_model->log(), m_log);
    QCOMPARE(m_model->columnCount(), int(TrafficLogModel::ColumnCount));
    QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 0); // a flat table
}

void tst_TrafficLogModel::droppedEntriesLeaveFromTheTop()
{
    m_log->setCapacity(10);
    m_model->setLog(m_log);
    for (int i = 0; i < 10; ++i)
        m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("m%1").arg(i), "{}"));
    QTRY_COMPARE(m_model->rowCount(), 10);
    QSignalSpy removed(m_model, &QAbstractItemModel::rowsRemoved);
    m_log->append(entry(TrafficLog::Direction::Outgoing, QStringLiteral("m10"), "{}"));
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.first().at(1).toInt(), 0);
    const int dropped = removed.first().at(2).toInt() + 1;
    QCOMPARE(dropped, 11 - int(m_log->entries().size()));
    QTRY_COMPARE(m_model->rowCount(), int(m_log->entries().size()));
    QCOMPARE(m_model->index(0, TrafficLogModel::MethodColumn).data().toString(),
             QStringLiteral("m%1").arg(dropped));
    QCOMPARE(m_model->index(m_model->rowCount() - 1, TrafficLogModel::MethodColumn).data().toString(),
             QStringLiteral("m10"));
}

void tst_TrafficLogModel::columnsAndRoles()
{
    TrafficLog::Entry out = entry(TrafficLog::Direction::Outgoing, QStringLiteral("tools/list"),
                                  R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})");
    out.timestampMs = QDateTime(QDate(2026, 7, 28), QTime(13, 14, 15, 16)).toMSecsSinceEpoch();
    m_log->append(out);
    m_log->append(entry(TrafficLog::Direction::Incoming, QStringLiteral("tools/list"),
                        QByteArray(R"({"error":"line one)") + "\n" + QByteArray(300, 'x') + "\"}", 42, true));
    m_log->appendDiagnostic(QStringLiteral("stderr: hello"));
    m_model->setLog(m_log);

    auto cell = [this](int row, int column, int role = Qt::DisplayRole) {
        return m_model->index(row, column).data(role);
    };
    QCOMPARE(cell(0, TrafficLogModel::TimeColumn).toString(), QStringLiteral("13:14:15.016"));
    QCOMPARE(cell(0, TrafficLogModel::DirectionColumn).toString(), QStringLiteral("→"));
    QCOMPARE(cell(1, TrafficLogModel::DirectionColumn).toString(), QStringLiteral("←"));
    QCOMPARE(cell(2, TrafficLogModel::DirectionColumn).toString(), QStringLiteral("·"));
    QCOMPARE(cell(0, TrafficLogModel::MethodColumn).toString(), QStringLiteral("tools/list"));
    QCOMPARE(cell(0, TrafficLogModel::IdColumn).toString(), QStringLiteral("7"));
    QCOMPARE(cell(0, TrafficLogModel::BytesColumn).toLongLong(), qint64(out.text.size()));
    QCOMPARE(cell(0, TrafficLogModel::LatencyColumn).toString(), QString()); // requests have none
    QCOMPARE(cell(1, TrafficLogModel::LatencyColumn).toString(), QStringLiteral("42 ms"));
    QCOMPARE(cell(0, TrafficLogModel::SummaryColumn).toString(), QString::fromUtf8(out.text));
    // The summary is one line of at most 200 characters.
    const QString summary = cell(1, TrafficLogModel::SummaryColumn).toString();
    QCOMPARE(summary.size(), 200);
    QVERIFY(!summary.contains(QLatin1Char('\n')));
    QVERIFY(summary.startsWith(QStringLiteral("{\"error\":\"line one x")));

    QCOMPARE(cell(0, 0, TrafficLogModel::TextRole).toByteArray(), out.text);
    QCOMPARE(cell(1, 0, TrafficLogModel::DirectionRole).toInt(), int(TrafficLog::Direction::Incoming));
    QVERIFY(cell(1, 0, TrafficLogModel::IsErrorRole).toBool());
    QVERIFY(!cell(0, 0, TrafficLogModel::IsErrorRole).toBool());
    QCOMPARE(cell(0, TrafficLogModel::BytesColumn, Qt::TextAlignmentRole).toInt(),
             int(Qt::AlignRight | Qt::AlignVCenter));
    QVERIFY(!cell(0, TrafficLogModel::MethodColumn, Qt::TextAlignmentRole).isValid());
    QVERIFY(!cell(3, 0).isValid());

    QCOMPARE(m_model->headerData(TrafficLogModel::MethodColumn, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("Method"));
    QVERIFY(!m_model->headerData(0, Qt::Vertical, Qt::DisplayRole).isValid());
    QVERIFY(!m_model->headerData(TrafficLogModel::ColumnCount, Qt::Horizontal, Qt::DisplayRole).isValid());
}

void tst_TrafficLogModel::prettyText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("pretty");
    QTest::addRow("json_indented") << QByteArray(R"({"a":[1]})")
                                   << QStringLiteral("{\n    \"a\": [\n        1\n    ]\n}\n");
    QTest::addRow("not_json_as_is") << QByteArray("stderr: boom") << QStringLiteral("stderr: boom");
    const qint64 cut = TrafficLog::maxEntryBytes;
    QTest::addRow("cut_message_says_so")
        << QByteArray(cut + 10, 'x')
        << QString(cut, QLatin1Char('x')) +
               QStringLiteral("\n… (cut at %1 bytes of %2)").arg(cut).arg(cut + 10);
}

void tst_TrafficLogModel::prettyText()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, pretty);
    m_log->append(entry(TrafficLog::Direction::Incoming, QStringLiteral("x"), text));
    m_model->setLog(m_log);
    QCOMPARE(m_model->prettyText(0), pretty);
    QCOMPARE(m_model->prettyText(1), QString()); // no such row
    QCOMPARE(m_model->prettyText(-1), QString());
}

QTEST_GUILESS_MAIN(tst_TrafficLogModel)
#include "tst_trafficlogmodel.moc"
