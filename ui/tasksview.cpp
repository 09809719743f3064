#include "tasksview.h"

#include "contentblocks.h"
#include "fonts.h"
#include "serversession.h"
#include "statuscolors.h"
#include "taskboard.h"
#include "terminaltext.h"
#include "ttlclock.h"
#include "wraplabel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace folio {

namespace {

QColor statusColor(const StatusColors &colors, const QModelIndex &index)
{
    switch (TaskRecord::Phase(index.data(TaskBoard::PhaseRole).toInt())) {
    case TaskRecord::Phase::Failed:
        return colors.failed();
    case TaskRecord::Phase::Starting:
        return colors.mutedText();
    default:
        break;
    }
    switch (TaskInfo::Status(index.data(TaskBoard::StatusRole).toInt())) {
    case TaskInfo::Status::Working:
        return colors.info();
    case TaskInfo::Status::InputRequired:
        return colors.stale();
    case TaskInfo::Status::Completed:
        return colors.fresh();
    case TaskInfo::Status::Failed:
        return colors.failed();
    case TaskInfo::Status::Cancelled:
    case TaskInfo::Status::Unknown:
        break;
    }
    return colors.mutedText();
}

} // namespace

TaskDelegate::TaskDelegate(TaskBoard *board, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_board(board)
{}

QString TaskDelegate::ttlText(const QModelIndex &index) const
{
    const qint64 ttl = index.data(TaskBoard::TtlRole).toLongLong();
    if (ttl == TaskInfo::Unlimited)
        return tr("unlimited");
    const qint64 expires = index.data(TaskBoard::ExpiresAtRole).toLongLong();
    if (expires < 0)
        return TaskRecord::Phase(index.data(TaskBoard::PhaseRole).toInt()) == TaskRecord::Phase::Starting
                   ? QString()
                   : tr("none given");
    const qint64 left = expires - m_board->ttlClock()->nowMs();
    if (left <= 0)
        return tr("ran out");
    return tr("%1 left").arg(formatDuration(left));
}

void TaskDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                         const QModelIndex &index) const
{
    if (index.column() != TaskBoard::StatusColumn && index.column() != TaskBoard::ExpiresColumn) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : nullptr;
    if (style)
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    const StatusColors colors(option.palette);
    const bool selected = option.state & QStyle::State_Selected;
    const QRect r = option.rect.adjusted(6, 0, -6, 0);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    if (index.column() == TaskBoard::StatusColumn) {
        // A dot in the status's colour, then the status.
        const QColor c = statusColor(colors, index);
        const qreal d = qMin(10, r.height() - 8);
        painter->setPen(Qt::NoPen);
        painter->setBrush(c);
        painter->drawEllipse(QRectF(r.left(), r.center().y() - d / 2 + 1, d, d));
        painter->setPen(selected ? option.palette.highlightedText().color() : option.palette.text().color());
        const QRect text = r.adjusted(int(d) + 6, 0, 0, 0);
        painter->drawText(
            text, Qt::AlignLeft | Qt::AlignVCenter,
            option.fontMetrics.elidedText(index.data().toString(), Qt::ElideRight, text.width()));
    } else {
        // The ttl: a bar that drains while the server keeps the task, grey once it ran out.
        const qint64 ttl = index.data(TaskBoard::TtlRole).toLongLong();
        const qint64 expires = index.data(TaskBoard::ExpiresAtRole).toLongLong();
        const QString text = ttlText(index);
        int textLeft = r.left();
        if (ttl > 0 && expires >= 0) {
            const qint64 left = expires - m_board->ttlClock()->nowMs();
            const QRectF bar(r.left(), r.center().y() - 3, qMin(barWidth, r.width() / 2), 6);
            colors.drawTtlBar(painter, bar,
                              left > 0 ? StatusColors::TtlBar::Fresh : StatusColors::TtlBar::Expired,
                              left > 0 ? qreal(left) / qreal(ttl) : 0.0, 0);
            textLeft = int(bar.right()) + 8;
        }
        painter->setPen(selected ? option.palette.highlightedText().color() : option.palette.text().color());
        const QRect textRect(textLeft, r.top(), r.right() - textLeft, r.height());
        painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
                          option.fontMetrics.elidedText(text, Qt::ElideRight, textRect.width()));
    }
    painter->restore();
}

TasksView::TasksView(ServerSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_empty(new WrapLabel(this))
    , m_table(new QTreeView(this))
    , m_delegate(new TaskDelegate(session->tasks(), this))
    , m_detail(new WrapLabel(this))
    , m_result(new ContentBlocks(this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_cancel(new QPushButton(tr("Cancel Task"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_tick(new QTimer(this))
{
    setObjectName(QStringLiteral("tasksView"));
    TaskBoard *tasks = session->tasks();

    m_empty->setObjectName(QStringLiteral("tasksEmpty"));
    m_empty->setTextFormat(Qt::PlainText);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setText(tr("No tasks yet.\nA tool the server runs as a task starts here from its Call window "
                        "(\u201cRun as a task\u201d): its status, its ttl counting down, and its result "
                        "once it ends."));

    m_table->setObjectName(QStringLiteral("tasksTable"));
    m_table->setAccessibleName(tr("Tasks"));
    m_table->setModel(tasks);
    m_table->setItemDelegate(m_delegate);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAllColumnsShowFocus(true);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setTextElideMode(Qt::ElideRight);
    QHeaderView *header = m_table->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(TaskBoard::MessageColumn, QHeaderView::Stretch);
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    header->resizeSection(TaskBoard::ToolColumn, em * 10);
    header->resizeSection(TaskBoard::StatusColumn, em * 9);
    // The bar and the longest countdown it writes beside it.
    header->resizeSection(TaskBoard::ExpiresColumn,
                          TaskDelegate::barWidth + 20 +
                              fontMetrics().horizontalAdvance(tr("99 min 59 s left")));
    header->resizeSection(TaskBoard::TaskIdColumn, em * 12);

    m_detail->setObjectName(QStringLiteral("taskDetail"));
    m_detail->setTextFormat(Qt::PlainText);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_result->setObjectName(QStringLiteral("taskResult"));

    m_refresh->setObjectName(QStringLiteral("taskRefresh"));
    m_refresh->setToolTip(tr("Ask the server where the task stands now (tasks/get, F5)"));
    m_refresh->setShortcut(QKeySequence(Qt::Key_F5));
    m_cancel->setObjectName(QStringLiteral("taskCancel"));
    m_cancel->setToolTip(tr("Ask the server to stop the task (tasks/cancel)"));
    m_remove->setObjectName(QStringLiteral("taskRemove"));
    m_remove->setToolTip(tr("Forget this ended task here (the server is asked nothing; Delete)"));
    auto *removeKey = new QAction(m_table);
    removeKey->setShortcut(QKeySequence::Delete);
    removeKey->setShortcutContext(Qt::WidgetShortcut);
    m_table->addAction(removeKey);
    connect(removeKey, &QAction::triggered, m_remove, &QPushButton::click);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_cancel);
    buttons->addStretch();
    buttons->addWidget(m_remove);

    auto *below = new QWidget(this);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(8, 4, 8, 4);
    belowLayout->addLayout(buttons);
    belowLayout->addWidget(m_detail);
    auto *resultScroll = new QScrollArea(below);
    resultScroll->setWidgetResizable(true);
    resultScroll->setFrameShape(QFrame::NoFrame);
    resultScroll->setWidget(m_result);
    belowLayout->addWidget(resultScroll, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(below);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty, 1);
    layout->addWidget(split, 1);

    connect(m_refresh, &QPushButton::clicked, this, [this] {
        if (board()->refresh(currentRow()))
            Q_EMIT statusMessage(
                tr("Asked where task %1 stands").arg(oneLineSafe(board()->record(currentRow()).task.taskId)));
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (board()->cancel(row))
            Q_EMIT statusMessage(
                tr("Asked the server to cancel %1").arg(oneLineSafe(board()->record(row).toolName)));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (row >= 0 && !board()->record(row).isLive())
            board()->remove(row);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TasksView::updateDetail);
    connect(tasks, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &from, const QModelIndex &to) {
                if (currentRow() >= from.row() && currentRow() <= to.row())
                    updateDetail();
                updateTicking();
            });
    connect(tasks, &QAbstractItemModel::rowsInserted, this, &TasksView::updateDetail);
    connect(tasks, &QAbstractItemModel::rowsRemoved, this, &TasksView::updateDetail);
    connect(tasks, &QAbstractItemModel::modelReset, this, &TasksView::updateDetail);
    connect(tasks, &TaskBoard::taskEnded, this, [this](int row) {
        const TaskRecord &r = board()->record(row);
        Q_EMIT statusMessage(
            tr("Task %1 ended: %2").arg(oneLineSafe(r.toolName), oneLineSafe(r.statusLine())));
    });
    // The ttl column counts down once a second while a task's ttl runs and the tab is seen.
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, [this] {
        if (!isVisible() || board()->count() == 0)
            return;
        m_table->viewport()->update();
        updateTicking();
    });
    updateDetail();
}

TaskBoard *TasksView::board() const
{
    return m_session->tasks();
}

int TasksView::currentRow() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void TasksView::showTask(int row)
{
    if (row < 0 || row >= board()->count())
        return;
    m_table->setCurrentIndex(board()->index(row, 0));
    m_table->scrollTo(m_table->currentIndex());
    updateDetail();
}

void TasksView::updateTicking()
{
    const qint64 now = board()->ttlClock()->nowMs();
    bool counting = false;
    for (int i = 0; i < board()->count() && !counting; ++i) {
        const qint64 expires = board()->record(i).expiresAtMonoMs();
        counting = expires > now;
    }
    if (counting && !m_tick->isActive())
        m_tick->start();
    else if (!counting)
        m_tick->stop();
}

void TasksView::updateDetail()
{
    const bool any = board()->count() > 0;
    m_empty->setVisible(!any);
    m_table->parentWidget()->setVisible(any); // the splitter
    if (any && currentRow() < 0)
        m_table->setCurrentIndex(board()->index(board()->count() - 1, 0));
    const int row = currentRow();
    m_refresh->setEnabled(row >= 0 && board()->record(row).phase == TaskRecord::Phase::Running);
    m_cancel->setEnabled(row >= 0 && (board()->record(row).phase == TaskRecord::Phase::Running ||
                                      board()->record(row).phase == TaskRecord::Phase::Starting));
    m_remove->setEnabled(row >= 0 && !board()->record(row).isLive());
    updateTicking();
    if (row < 0) {
        m_detail->clear();
        m_result->clear();
        return;
    }
    const TaskRecord &r = board()->record(row);
    QStringList lines;
    lines << tr("%1: %2").arg(oneLineSafe(r.toolName), terminalSafe(r.statusLine()));
    if (!r.task.taskId.isEmpty())
        lines << tr("Task %1 · %2")
                     .arg(oneLineSafe(r.task.taskId),
                          r.legacyEra ? tr("2025-11-25 core tasks") : tr("tasks extension"));
    QStringList asked;
    asked << tr("polled %n time(s)", nullptr, r.polls);
    if (r.task.pollIntervalMs >= 0)
        asked << tr("every %1 as the server asks")
                     .arg(formatDuration(qMax(TaskBoard::minPollMs, r.task.pollIntervalMs)));
    asked << tr("%n status notification(s)", nullptr, r.notifications);
    if (!r.inputsAsked.isEmpty())
        asked << tr("asked for %1 (answered in %2 tasks/update)")
                     .arg(oneLineSafe(r.inputsAsked.join(QStringLiteral(", "))))
                     .arg(r.inputsAnswered);
    if (r.cancelAsked)
        asked << tr("cancel asked");
    lines << asked.join(QStringLiteral(" · "));
    if (r.error.isError() && r.isLive())
        lines << tr("Last request failed: %1").arg(terminalSafe(r.error.describe()));
    for (const Finding &f : r.findings)
        lines << QStringLiteral("%1 (%2): %3")
                     .arg(f.id, Finding::severityName(f.severity), terminalSafe(f.message));
    if (r.phase == TaskRecord::Phase::Ended && r.task.status == TaskInfo::Status::Completed) {
        if (r.result.value(QStringLiteral("isError")).toBool())
            lines << tr("The tool reported an error (isError):");
        else
            lines << tr("Result:");
    }
    m_detail->setText(lines.join(QLatin1Char('\n')));
    if (r.result.isEmpty())
        m_result->clear();
    else
        m_result->setBlocks(r.result.value(QStringLiteral("content")).toArray());
}

} // namespace folio
