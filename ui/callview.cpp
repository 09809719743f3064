#include "callview.h"

#include "contentblocks.h"
#include "fonts.h"
#include "invocationrun.h"
#include "jsontreemodel.h"
#include "schemaform.h"
#include "serversession.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "toolresultcheck.h"
#include "wraplabel.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace folio {

namespace {

QString indented(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented));
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

// The annotations as a line: "readOnlyHint false · destructiveHint true (not stated: the default)".
QString annotationsText(const QJsonObject &tool)
{
    const QJsonObject a = tool.value(QStringLiteral("annotations")).toObject();
    QStringList parts;
    for (const char *key : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
        const QJsonValue v = a.value(QLatin1String(key));
        if (!v.isUndefined())
            parts << QStringLiteral("%1 %2").arg(QLatin1String(key), indented(v));
    }
    return parts.isEmpty() ? QObject::tr("No annotations") : parts.join(QStringLiteral(" · "));
}

} // namespace

CallView::CallView(ServerSession *session, const QJsonObject &tool, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_tool(tool)
    , m_refusal(McpClient::toolHeaderProblem(tool))
    , m_form(new SchemaForm(this))
    , m_confirm(new QWidget(this))
    , m_confirmText(new WrapLabel(m_confirm))
    , m_confirmCall(new QPushButton(tr("Call"), m_confirm))
    , m_confirmCancel(new QPushButton(tr("Don't call"), m_confirm))
    , m_call(new QPushButton(tr("Call"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_progressText(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_resultStack(new QStackedWidget(this))
    , m_emptyResult(new WrapLabel(this))
    , m_resultPage(new QWidget(this))
    , m_status(new WrapLabel(m_resultPage))
    , m_content(new ContentBlocks(m_resultPage))
    , m_structured(new QWidget(m_resultPage))
    , m_schemaCheck(new WrapLabel(m_structured))
    , m_tree(new QTreeView(m_structured))
    , m_json(new JsonTreeModel(this))
    , m_rawToggle(new QToolButton(m_resultPage))
    , m_raw(new QPlainTextEdit(m_resultPage))
    , m_refusalLabel(new WrapLabel(this))
    , m_risk(new WrapLabel(this))
{
    const QString name = tool.value(QStringLiteral("name")).toString();
    setObjectName(QStringLiteral("callView"));
    setWindowTitle(tr("Call %1").arg(name));

    // Who the tool is.
    auto *title = new QLabel(name, this);
    title->setObjectName(QStringLiteral("callToolName"));
    title->setFont(titleFont(title->font()));
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QString displayTitle = tool.value(QStringLiteral("title")).toString();
    if (displayTitle.isEmpty())
        displayTitle =
            tool.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("title")).toString();
    auto *subtitle = new QLabel(displayTitle, this);
    subtitle->setVisible(!displayTitle.isEmpty() && displayTitle != name);
    auto *description = new WrapLabel(this);
    description->setTextFormat(Qt::PlainText);
    description->setText(terminalSafe(tool.value(QStringLiteral("description")).toString()));
    description->setVisible(!description->text().isEmpty());
    description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *annotations = new WrapLabel(this);
    annotations->setObjectName(QStringLiteral("callAnnotations"));
    annotations->setTextFormat(Qt::PlainText);
    annotations->setText(annotationsText(tool));
    m_risk->setObjectName(QStringLiteral("callRisk"));
    m_risk->setTextFormat(Qt::PlainText);
    m_risk->setText(riskText(tool));
    m_risk->setVisible(!m_risk->text().isEmpty());
    m_refusalLabel->setObjectName(QStringLiteral("callRefusal"));
    m_refusalLabel->setTextFormat(Qt::PlainText);
    m_refusalLabel->setText(tr("Folio does not call this tool: %1").arg(m_refusal));
    m_refusalLabel->setVisible(!m_refusal.isEmpty());

    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(title);
    titleRow->addWidget(subtitle);
    titleRow->addStretch();
    auto *header = new QVBoxLayout;
    header->setSpacing(2);
    header->addLayout(titleRow);
    header->addWidget(description);
    header->addWidget(annotations);
    header->addWidget(m_risk);
    header->addWidget(m_refusalLabel);

    // The arguments, the confirmation, the buttons.
    m_form->setObjectName(QStringLiteral("callForm"));
    m_form->setSchema(tool.value(QStringLiteral("inputSchema")).toObject());
    m_confirm->setObjectName(QStringLiteral("callConfirm"));
    m_confirm->setAutoFillBackground(true);
    m_confirmText->setTextFormat(Qt::PlainText);
    m_confirmCall->setObjectName(QStringLiteral("confirmCall"));
    m_confirmCancel->setObjectName(QStringLiteral("confirmCancel"));
    auto *confirmLayout = new QVBoxLayout(m_confirm);
    confirmLayout->setContentsMargins(8, 6, 8, 6);
    confirmLayout->addWidget(m_confirmText);
    auto *confirmButtons = new QHBoxLayout;
    confirmButtons->addStretch();
    confirmButtons->addWidget(m_confirmCancel);
    confirmButtons->addWidget(m_confirmCall);
    confirmLayout->addLayout(confirmButtons);
    m_confirm->setVisible(false);
    connect(m_confirmCall, &QPushButton::clicked, this, &CallView::callNow);
    connect(m_confirmCancel, &QPushButton::clicked, this, [this] {
        setState(State::Idle);
        Q_EMIT statusMessage(tr("%1 was not called").arg(m_tool.value(QStringLiteral("name")).toString()));
    });

    m_call->setObjectName(QStringLiteral("callButton"));
    m_call->setToolTip(tr("Call the tool with these arguments (Ctrl+Return)"));
    m_call->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancelCall"));
    m_cancel->setToolTip(tr("Cancel the call (sends notifications/cancelled)"));
    m_progress->setObjectName(QStringLiteral("callProgress"));
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(200);
    m_progressText->setObjectName(QStringLiteral("callProgressText"));
    connect(m_call, &QPushButton::clicked, this, &CallView::call);
    connect(m_cancel, &QPushButton::clicked, this, &CallView::cancel);
    connect(m_form, &SchemaForm::submitted, this, &CallView::call);
    auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &CallView::call);
    auto *enterShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), this);
    enterShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(enterShortcut, &QShortcut::activated, this, &CallView::call);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_progress);
    buttons->addWidget(m_progressText);
    buttons->addStretch(1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_call);

    auto *left = new QWidget(m_splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 4, 0);
    auto *argsTitle = new QLabel(tr("Arguments"), left);
    argsTitle->setFont(titleFont(argsTitle->font()));
    leftLayout->addWidget(argsTitle);
    leftLayout->addWidget(m_form, 1);
    leftLayout->addWidget(m_confirm);
    leftLayout->addLayout(buttons);

    // The result.
    m_emptyResult->setObjectName(QStringLiteral("emptyState"));
    m_emptyResult->setAlignment(Qt::AlignCenter);
    m_emptyResult->setText(m_refusal.isEmpty()
                               ? tr("Fill in the arguments and press Call (Ctrl+Return).\nThe "
                                    "result shows here.")
                               : tr("This tool cannot be called from Folio."));
    m_status->setObjectName(QStringLiteral("callStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setFont(titleFont(m_status->font()));
    m_schemaCheck->setObjectName(QStringLiteral("callSchemaCheck"));
    m_schemaCheck->setTextFormat(Qt::PlainText);
    m_schemaCheck->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tree->setObjectName(QStringLiteral("callStructured"));
    m_tree->setModel(m_json);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setIndentation(14);
    m_tree->setMinimumHeight(120);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::ValueColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::TypeColumn, QHeaderView::ResizeToContents);
    auto *structuredLayout = new QVBoxLayout(m_structured);
    structuredLayout->setContentsMargins(0, 0, 0, 0);
    auto *structuredTitle = new QLabel(tr("structuredContent"), m_structured);
    structuredTitle->setFont(titleFont(structuredTitle->font()));
    structuredLayout->addWidget(structuredTitle);
    structuredLayout->addWidget(m_schemaCheck);
    structuredLayout->addWidget(m_tree, 1);
    m_rawToggle->setObjectName(QStringLiteral("rawToggle"));
    m_rawToggle->setText(tr("Raw"));
    m_rawToggle->setCheckable(true);
    m_rawToggle->setAutoRaise(true);
    m_rawToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rawToggle->setArrowType(Qt::RightArrow);
    m_rawToggle->setToolTip(tr("Each round trip's request and response, as sent and received"));
    m_raw->setObjectName(QStringLiteral("callRaw"));
    m_raw->setReadOnly(true);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
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
    auto *contentTitle = new QLabel(tr("Content"), resultInner);
    contentTitle->setFont(titleFont(contentTitle->font()));
    resultLayout->addWidget(m_status);
    resultLayout->addWidget(contentTitle);
    resultLayout->addWidget(m_content);
    resultLayout->addWidget(m_structured);
    resultLayout->addWidget(m_rawToggle, 0, Qt::AlignLeft);
    resultLayout->addWidget(m_raw, 1);
    resultLayout->addStretch();
    m_status->setParent(resultInner);
    m_content->setParent(resultInner);
    m_structured->setParent(resultInner);
    m_rawToggle->setParent(resultInner);
    m_raw->setParent(resultInner);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(resultInner);
    auto *pageLayout = new QVBoxLayout(m_resultPage);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(scroll);
    m_resultStack->addWidget(m_emptyResult);
    m_resultStack->addWidget(m_resultPage);

    auto *right = new QWidget(m_splitter);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 0, 0, 0);
    auto *resultTitle = new QLabel(tr("Result"), right);
    resultTitle->setFont(titleFont(resultTitle->font()));
    rightLayout->addWidget(resultTitle);
    rightLayout->addWidget(m_resultStack, 1);
    m_splitter->addWidget(left);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);
    QSettings settings;
    m_splitter->restoreState(settings.value(SettingsKey::CallViewSplitter).toByteArray());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->addLayout(header);
    layout->addWidget(m_splitter, 1);

    applyColors();
    setState(State::Idle);
}

CallView::~CallView()
{
    saveSettings();
}

McpClient *CallView::client() const
{
    return m_session ? m_session->client() : nullptr;
}

void CallView::saveSettings() const
{
    QSettings settings;
    settings.setValue(SettingsKey::CallViewSplitter, m_splitter->saveState());
}

bool CallView::asksFirst() const
{
    return m_tool.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("readOnlyHint")) !=
           QJsonValue(true);
}

QString CallView::riskText(const QJsonObject &tool)
{
    const QJsonObject a = tool.value(QStringLiteral("annotations")).toObject();
    if (a.value(QStringLiteral("readOnlyHint")) == QJsonValue(true))
        return {};
    // The spec's defaults: readOnlyHint false, destructiveHint true.
    const QJsonValue destructive = a.value(QStringLiteral("destructiveHint"));
    if (destructive == QJsonValue(false))
        return tr("Not marked read-only: it may change things (its annotations say it does not delete or "
                  "overwrite). Folio asks before calling it.");
    if (destructive == QJsonValue(true))
        return tr("It may change or delete things: its annotations say it is destructive. Folio asks before "
                  "calling it.");
    return tr("It may change or delete things: it is not marked read-only and does not say it is not "
              "destructive (the spec's default). Folio asks before calling it.");
}

void CallView::call()
{
    if (!m_refusal.isEmpty() || m_state == State::Running || !client())
        return;
    const QString problem = m_form->problem();
    QStringList reasons;
    if (asksFirst())
        reasons << riskText(m_tool);
    if (!problem.isEmpty())
        reasons << tr("The arguments do not fit the tool's inputSchema (%1); the server will judge them.")
                       .arg(problem);
    if (reasons.isEmpty()) {
        callNow();
        return;
    }
    m_confirmText->setText(tr("Call %1?").arg(m_tool.value(QStringLiteral("name")).toString()) +
                           QLatin1Char('\n') + reasons.join(QLatin1Char('\n')));
    setState(State::Confirming);
    m_confirmCancel->setFocus();
}

void CallView::callNow()
{
    if (!m_refusal.isEmpty() || m_state == State::Running || !client())
        return;
    if (m_run)
        m_run->deleteLater();
    m_progress->setRange(0, 0);
    m_progressText->setText(tr("Calling…"));
    m_run = InvocationRun::callTool(client(), m_tool, m_form->values(), this);
    connect(m_run, &InvocationRun::progressed, this, &CallView::handleProgress);
    connect(m_run, &InvocationRun::finished, this, &CallView::handleFinished);
    setState(State::Running);
    if (m_run->isFinished()) // refused before anything was sent
        handleFinished();
}

void CallView::cancel()
{
    if (m_state == State::Confirming) {
        setState(State::Idle);
        return;
    }
    if (m_run)
        m_run->cancel();
}

void CallView::setState(State state)
{
    m_state = state;
    updateButtons();
    Q_EMIT stateChanged();
}

void CallView::updateButtons()
{
    const bool running = m_state == State::Running;
    m_confirm->setVisible(m_state == State::Confirming);
    m_call->setEnabled(m_refusal.isEmpty() && !running && m_state != State::Confirming && client());
    m_cancel->setVisible(running);
    m_progress->setVisible(running);
    m_progressText->setVisible(running);
    m_form->setEnabled(!running && m_refusal.isEmpty());
}

void CallView::handleProgress(double progress, double total, const QString &message)
{
    if (total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(qBound(0.0, progress / total, 1.0) * 1000));
        m_progressText->setText(message.isEmpty()
                                    ? tr("%1 of %2").arg(QString::number(progress), QString::number(total))
                                    : message);
    } else {
        m_progress->setRange(0, 0);
        m_progressText->setText(message.isEmpty() ? tr("%1 so far").arg(progress) : message);
    }
}

void CallView::handleFinished()
{
    if (!m_run || m_state != State::Running)
        return;
    const StatusColors colors(palette());
    const InvocationRun::Outcome outcome = m_run->outcome();
    const QJsonObject result = m_run->result();
    const QString timing = m_run->timing();
    QColor statusColor = colors.text();
    switch (outcome) {
    case InvocationRun::Outcome::Cancelled:
        m_status->setText(tr("Cancelled: notifications/cancelled was sent. %1").arg(timing));
        statusColor = colors.stale();
        break;
    case InvocationRun::Outcome::ToolError:
        m_status->setText(tr("The tool reported an error (isError: true). %1").arg(timing));
        statusColor = colors.failed();
        break;
    case InvocationRun::Outcome::Failed:
        m_status->setText(tr("tools/call failed: %1. %2").arg(m_run->error().describe(), timing));
        statusColor = colors.failed();
        break;
    case InvocationRun::Outcome::Done:
    case InvocationRun::Outcome::Running:
        m_status->setText(tr("Done: %1").arg(timing));
        statusColor = colors.fresh();
        break;
    }
    QPalette p = palette();
    p.setColor(QPalette::WindowText, statusColor);
    m_status->setPalette(p);

    const QJsonArray content = result.value(QStringLiteral("content")).toArray();
    m_content->setBlocks(content);

    // structuredContent, checked against outputSchema (never hidden when it does not match).
    const bool hasStructured = result.contains(QStringLiteral("structuredContent"));
    const bool hasSchema = m_tool.contains(QStringLiteral("outputSchema"));
    m_structured->setVisible(hasStructured || (hasSchema && !result.isEmpty()));
    QColor checkColor = colors.mutedText();
    if (hasStructured) {
        m_json->setJson(result.value(QStringLiteral("structuredContent")));
        m_tree->expandToDepth(1);
        m_tree->setVisible(true);
    } else {
        m_json->clear();
        m_tree->setVisible(false);
    }
    const ToolResultCheck check = ToolResultCheck::of(m_tool, result);
    QString checkText = check.summary();
    for (const QString &line : check.violationLines())
        checkText += QStringLiteral("\n• ") + line;
    m_schemaCheck->setText(checkText);
    if (check.failed())
        checkColor = colors.failed();
    else if (check.verdict == ToolResultCheck::Verdict::Matches)
        checkColor = colors.fresh();
    QPalette cp = palette();
    cp.setColor(QPalette::WindowText, checkColor);
    m_schemaCheck->setPalette(cp);

    m_raw->setPlainText(terminalSafe(m_run->transcript()));
    // A failure with no result to read: the raw exchange is where it happened.
    if (outcome == InvocationRun::Outcome::Failed && !m_rawToggle->isChecked())
        m_rawToggle->setChecked(true);
    m_resultStack->setCurrentWidget(m_resultPage);
    setState(State::Done);
    Q_EMIT statusMessage(m_status->text());
    Q_EMIT callFinished();
}

void CallView::applyColors()
{
    const StatusColors colors(palette());
    QPalette error = palette();
    error.setColor(QPalette::WindowText, colors.failed());
    m_refusalLabel->setPalette(error);
    QPalette warn = palette();
    warn.setColor(QPalette::WindowText, colors.stale());
    m_risk->setPalette(warn);
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, colors.mutedText());
    m_emptyResult->setPalette(muted);
    findChild<WrapLabel *>(QStringLiteral("callAnnotations"))->setPalette(muted);
    // The confirmation stands out from the form: the warning colour, faint, behind it.
    QPalette confirm = palette();
    QColor tint = colors.stale();
    tint.setAlphaF(colors.isDark() ? 0.22 : 0.16);
    const QColor base = palette().color(QPalette::Window);
    const QColor mixed(int(base.red() * (1 - tint.alphaF()) + tint.red() * tint.alphaF()),
                       int(base.green() * (1 - tint.alphaF()) + tint.green() * tint.alphaF()),
                       int(base.blue() * (1 - tint.alphaF()) + tint.blue() * tint.alphaF()));
    confirm.setColor(QPalette::Window, mixed);
    m_confirm->setPalette(confirm);
}

void CallView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

} // namespace folio
