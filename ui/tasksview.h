#pragma once

#include <QStyledItemDelegate>
#include <QWidget>

class QPushButton;
class QTimer;
class QTreeView;

namespace folio {

class ContentBlocks;
class ServerSession;
class TaskBoard;
class WrapLabel;

// A task's status in its colour and its ttl as a bar counting down, in the colours of pages and
// reads: green and draining while the server keeps it, grey once its ttl ran out.
class TaskDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    static constexpr int barWidth = 56;
    TaskDelegate(TaskBoard *board, QObject *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    // What the ttl cell says now: "9 min 58 s left", "ran out", "unlimited", "none given".
    QString ttlText(const QModelIndex &index) const;

private:
    TaskBoard *m_board;
};

// The Tasks tab: the tasks started on this connection (a tool's Call window, "Run as a task"),
// one row each, draining as the server tells (status, message, the ttl counting down), and under
// the table the selected task: where it stands, what Folio asked, and its result once it ended.
// Refresh asks tasks/get now (F5), Cancel task asks tasks/cancel, Remove forgets an ended one.
class TasksView : public QWidget
{
    Q_OBJECT
public:
    explicit TasksView(ServerSession *session, QWidget *parent = nullptr);

    TaskBoard *board() const;
    QTreeView *table() const { return m_table; }
    WrapLabel *emptyLabel() const { return m_empty; }
    WrapLabel *detailLabel() const { return m_detail; }
    ContentBlocks *resultBlocks() const { return m_result; }
    QPushButton *refreshButton() const { return m_refresh; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *removeButton() const { return m_remove; }
    // Selects a row (a task just started).
    void showTask(int row);
    int currentRow() const;

Q_SIGNALS:
    void statusMessage(const QString &message);

private:
    void updateDetail();
    void updateTicking();

    ServerSession *m_session;
    WrapLabel *m_empty;
    QTreeView *m_table;
    TaskDelegate *m_delegate;
    WrapLabel *m_detail;
    ContentBlocks *m_result;
    QPushButton *m_refresh;
    QPushButton *m_cancel;
    QPushButton *m_remove;
    QTimer *m_tick;
};

} // namespace folio
