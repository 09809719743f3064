#include "invocationpane.h"
#include "ownwindow.h"

#include "fonts.h"
#include "serversession.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace folio {

namespace {

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setFont(titleFont(label->font()));
    return label;
}

// What a progress notification says, on one line: "3 of 10 — Fetching comments", "40 so far".
// The message is the server's text: made safe, and cut short so that it cannot crowd the pane.
QString progressLine(double progress, double total, const QString &message)
{
    constexpr int maxMessage = 300;
    QString said = oneLineSafe(message);
    if (said.size() > maxMessage)
        said = said.left(maxMessage - 1) + QChar(0x2026);
    QString counted;
    if (total > 0)
        counted = InvocationPane::tr("%1 of %2").arg(QString::number(progress), QString::number(total));
    else if (progress >= 0)
        counted = InvocationPane::tr("%1 so far").arg(QString::number(progress));
    if (said.isEmpty())
        return counted;
    return counted.isEmpty() ? said : counted + QStringLiteral(" — ") + said;
}

} // namespace

InvocationPane::InvocationPane(ServerSession *session, const QJsonObject &item, const Kind &kind,
                               QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_item(item)
    , m_kind(kind)
    , m_name(new QLabel(item.value(QStringLiteral("name")).toString(), this))
    , m_header(new QVBoxLayout)
    , m_left(new QVBoxLayout)
    , m_result(new QVBoxLayout)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_primary(new QPushButton(kind.primary, this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_close(new QPushButton(tr("Close"), this))
    , m_running(new QWidget(this))
    , m_working(new WrapLabel(m_running))
    , m_progress(new QProgressBar(m_running))
    , m_progressText(new WrapLabel(m_running))
    , m_elapsed(new QLabel(m_running))
    , m_elapsedTick(new QTimer(this))
    , m_resultStack(new QStackedWidget(this))
    , m_empty(new WrapLabel(this))
    , m_status(new WrapLabel(this))
    , m_rawToggle(new QToolButton(this))
    , m_raw(new QPlainTextEdit(this))
{
    const QString prefix = kind.objectPrefix;
    // Who it is.
    m_name->setFont(titleFont(m_name->font()));
    m_name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QString displayTitle = item.value(QStringLiteral("title")).toString();
    if (displayTitle.isEmpty()) // a 2025-03-26 tool's title is an annotation
        displayTitle =
            item.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("title")).toString();
    auto *subtitle = new QLabel(displayTitle, this);
    subtitle->setVisible(!displayTitle.isEmpty() && displayTitle != itemName());
    auto *description = new WrapLabel(this);
    description->setTextFormat(Qt::PlainText);
    description->setText(terminalSafe(item.value(QStringLiteral("description")).toString()));
    description->setVisible(!description->text().isEmpty());
    description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_name);
    titleRow->addWidget(subtitle);
    titleRow->addStretch();
    m_header->setSpacing(2);
    m_header->addLayout(titleRow);
    m_header->addWidget(description);

    // The arguments and the buttons.
    m_primary->setToolTip(kind.primaryTip);
    m_primary->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancel%1").arg(prefix.left(1).toUpper() + prefix.mid(1)));
    m_cancel->setToolTip(tr("Cancel (sends notifications/cancelled)"));
    connect(m_primary, &QPushButton::clicked, this, &InvocationPane::submit);
    connect(m_cancel, &QPushButton::clicked, this, &InvocationPane::cancel);
    for (const QKeySequence &keys :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &InvocationPane::submit);
    }
    // As a window of its own (showAsWindow()): Close, Ctrl+W, and Esc (which cancels a running
    // request first).
    m_close->setObjectName(prefix + QStringLiteral("Close"));
    m_close->setVisible(false);
    connect(m_close, &QPushButton::clicked, this, &QWidget::close);
    addCloseKeys(this, [this] {
        if (!isRunning())
            return false;
        cancel();
        return true;
    });
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_close);
    buttons->addWidget(m_primary);
    auto *left = new QWidget(m_splitter);
    auto *leftOuter = new QVBoxLayout(left);
    leftOuter->setContentsMargins(0, 0, 4, 0);
    leftOuter->addWidget(sectionTitle(tr("Arguments"), left));
    leftOuter->addLayout(m_left, 1);
    leftOuter->addLayout(buttons);

    // The result.
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(kind.emptyText);
    m_status->setObjectName(prefix + QStringLiteral("Status"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setFont(titleFont(m_status->font()));
    m_rawToggle->setObjectName(QStringLiteral("rawToggle"));
    m_rawToggle->setText(tr("Raw"));
    m_rawToggle->setCheckable(true);
    m_rawToggle->setAutoRaise(true);
    m_rawToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rawToggle->setArrowType(Qt::RightArrow);
    m_rawToggle->setToolTip(tr("Each round trip's request and response, as sent and received"));
    m_raw->setObjectName(prefix + QStringLiteral("Raw"));
    m_raw->setReadOnly(true);
    m_raw->setFont(fixedFont());
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_raw->setMinimumHeight(160);
    m_raw->setVisible(false);
    connect(m_rawToggle, &QToolButton::toggled, this, [this](bool on) {
        m_rawToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_raw->setVisible(on);
    });
    auto *resultInner = new QWidget;
    auto *resultLayout = new QVBoxLayout(resultInner);
    resultLayout->setContentsMargins(0, 0, 6, 0);
    for (QWidget *w : {static_cast<QWidget *>(m_status), static_cast<QWidget *>(m_rawToggle),
                       static_cast<QWidget *>(m_raw)})
        w->setParent(resultInner);
    resultLayout->addWidget(m_status);
    resultLayout->addLayout(m_result);
    resultLayout->addWidget(m_rawToggle, 0, Qt::AlignLeft);
    resultLayout->addWidget(m_raw, 1);
    resultLayout->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(resultInner);

    // While it runs: where the result will be, what the request is doing and how to stop it.
    m_running->setObjectName(prefix + QStringLiteral("Running"));
    m_working->setObjectName(prefix + QStringLiteral("Working"));
    m_working->setTextFormat(Qt::PlainText);
    m_working->setFont(titleFont(m_working->font()));
    m_progress->setObjectName(prefix + QStringLiteral("Progress"));
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(640);
    m_progressText->setObjectName(prefix + QStringLiteral("ProgressText"));
    m_progressText->setTextFormat(Qt::PlainText);
    m_progressText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_elapsed->setObjectName(prefix + QStringLiteral("Elapsed"));
    m_elapsedTick->setInterval(1000);
    connect(m_elapsedTick, &QTimer::timeout, this, &InvocationPane::showElapsed);
    m_cancel->setParent(m_running);
    auto *runningLayout = new QVBoxLayout(m_running);
    runningLayout->setContentsMargins(12, 0, 12, 0);
    runningLayout->setSpacing(8);
    runningLayout->addStretch(1);
    runningLayout->addWidget(m_working);
    runningLayout->addWidget(m_progress);
    runningLayout->addWidget(m_progressText);
    auto *runningFoot = new QHBoxLayout;
    runningFoot->addWidget(m_elapsed);
    runningFoot->addStretch(1);
    runningFoot->addWidget(m_cancel);
    runningLayout->addLayout(runningFoot);
    runningLayout->addStretch(2);

    m_resultStack->addWidget(m_empty);
    m_resultStack->addWidget(scroll);
    m_resultStack->addWidget(m_running);
    auto *right = new QWidget(m_splitter);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 0, 0, 0);
    rightLayout->addWidget(sectionTitle(kind.resultTitle, right));
    rightLayout->addWidget(m_resultStack, 1);
    m_splitter->addWidget(left);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->restoreState(QSettings().value(kind.splitterKey).toByteArray());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->addLayout(m_header);
    layout->addWidget(m_splitter, 1);
    InvocationPane::applyColors();
    InvocationPane::updateButtons();
}

InvocationPane::~InvocationPane()
{
    QSettings().setValue(m_kind.splitterKey, m_splitter->saveState());
}

ServerSession *InvocationPane::session() const
{
    return m_session;
}

McpClient *InvocationPane::client() const
{
    return m_session ? m_session->client() : nullptr;
}

QString InvocationPane::itemName() const
{
    return m_item.value(QStringLiteral("name")).toString();
}

void InvocationPane::addHeaderWidget(QWidget *widget)
{
    m_header->addWidget(widget);
}

void InvocationPane::setArgumentsWidget(QWidget *widget)
{
    m_left->insertWidget(0, widget, 1);
}

void InvocationPane::addBelowArguments(QWidget *widget)
{
    m_left->addWidget(widget);
}

void InvocationPane::addResultWidget(QWidget *widget, int stretch)
{
    m_result->insertWidget(m_resultWidgets++, widget, stretch);
}

void InvocationPane::start(InvocationRun *run, const QString &working)
{
    if (m_run)
        m_run->deleteLater();
    m_run = run;
    m_working->setText(oneLineSafe(working));
    m_progress->setRange(0, 0); // until the server says how far, if it does
    m_progressText->setText(tr("Waiting for the server…"));
    m_runClock.start();
    showElapsed();
    m_elapsedTick->start();
    if (m_resultStack->currentWidget() != m_running)
        m_pageBeforeRun = m_resultStack->currentIndex();
    m_resultStack->setCurrentWidget(m_running);
    connect(run, &InvocationRun::progressed, this, &InvocationPane::handleProgress);
    connect(run, &InvocationRun::finished, this, &InvocationPane::handleFinished);
    updateButtons();
    if (run->isFinished()) // refused before anything was sent
        handleFinished();
}

void InvocationPane::showAsWindow(const QString &title, QSize size)
{
    m_close->setVisible(true);
    showAsOwnWindow(this, title, size);
}

void InvocationPane::cancel()
{
    if (m_run)
        m_run->cancel();
}

void InvocationPane::updateButtons()
{
    const bool running = isRunning();
    m_primary->setEnabled(!running && client());
    m_cancel->setEnabled(running);
    if (!running) {
        m_elapsedTick->stop();
        // Ended without an outcome shown (a kind that had nothing to say): what was there before.
        if (m_resultStack->currentWidget() == m_running)
            m_resultStack->setCurrentIndex(m_pageBeforeRun);
    }
}

void InvocationPane::showElapsed()
{
    // Whole seconds ("0 s", "4 s", "1 min 05 s"): the line changes once a tick, not with every step.
    const qint64 ms = m_runClock.isValid() ? m_runClock.elapsed() : 0;
    m_elapsed->setText(tr("Running for %1").arg(ms < 1000 ? tr("0 s") : formatDuration(ms / 1000 * 1000)));
}

void InvocationPane::handleProgress(double progress, double total, const QString &message)
{
    if (total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(qBound(0.0, progress / total, 1.0) * 1000));
    } else {
        m_progress->setRange(0, 0); // busy: no total to measure against
    }
    m_progressText->setText(progressLine(progress, total, message));
    showElapsed(); // the time beside the step, not up to a second behind it
}

void InvocationPane::handleFinished()
{
    if (m_run && sender() && sender() != m_run)
        return; // a run replaced before it ended
    if (m_run)
        showOutcome(*m_run);
    updateButtons();
}

void InvocationPane::showResult(const QString &text, const QColor &color, const InvocationRun &run)
{
    // The status quotes the server (an error's message): shown, never acted on.
    const QString status = terminalSafe(text);
    m_status->setText(status);
    QPalette p = palette();
    p.setColor(QPalette::WindowText, color);
    m_status->setPalette(p);
    m_raw->setPlainText(terminalSafe(run.transcript()));
    // A failure with no result to read: the raw exchange is where it happened.
    if (run.outcome() == InvocationRun::Outcome::Failed && !m_rawToggle->isChecked())
        m_rawToggle->setChecked(true);
    m_resultStack->setCurrentIndex(1);
    Q_EMIT statusMessage(status);
}

void InvocationPane::applyColors()
{
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, StatusColors(palette()).mutedText());
    m_empty->setPalette(muted);
    m_progressText->setPalette(muted);
    m_elapsed->setPalette(muted);
}

void InvocationPane::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

} // namespace folio
