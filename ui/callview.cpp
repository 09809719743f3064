#include "callview.h"

#include "contentblocks.h"
#include "fonts.h"
#include "jsontreemodel.h"
#include "schemaform.h"
#include "serversession.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "taskboard.h"
#include "toolresultcheck.h"
#include "wraplabel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QTime>
#include <QTreeView>
#include <QVBoxLayout>

namespace folio {

namespace {

// The annotations as a line: "readOnlyHint false · destructiveHint true (not stated: the default)".
QString annotationsText(const QJsonObject &tool)
{
    const QJsonObject a = tool.value(QStringLiteral("annotations")).toObject();
    QStringList parts;
    for (const char *key : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
        const QJsonValue v = a.value(QLatin1String(key));
        if (!v.isUndefined())
            parts << QStringLiteral("%1 %2").arg(
                QLatin1String(key),
                QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                    .mid(1)
                    .chopped(1));
    }
    return parts.isEmpty() ? QObject::tr("No annotations") : parts.join(QStringLiteral(" · "));
}

} // namespace

CallView::CallView(ServerSession *session, const QJsonObject &tool, QWidget *parent)
    : InvocationPane(session, tool,
                     {tr("Call"), tr("Call the tool with these arguments (Ctrl+Return)"), tr("Result"),
                      tr("Fill in the arguments and press Call (Ctrl+Return).\nThe result shows here."),
                      SettingsKey::CallViewSplitter, QStringLiteral("call")},
                     parent)
    , m_refusal(InvocationRun::refusal(tool))
    , m_form(new SchemaForm(this))
    , m_confirm(new QWidget(this))
    , m_confirmText(new WrapLabel(m_confirm))
    , m_confirmCall(new QPushButton(tr("Call"), m_confirm))
    , m_confirmCancel(new QPushButton(tr("Don't call"), m_confirm))
    , m_content(new ContentBlocks(this))
    , m_structured(new QWidget(this))
    , m_schemaCheck(new WrapLabel(m_structured))
    , m_tree(new QTreeView(m_structured))
    , m_json(new JsonTreeModel(this))
    , m_annotations(new WrapLabel(this))
    , m_refusalLabel(new WrapLabel(this))
    , m_risk(new WrapLabel(this))
    , m_asTask(new QCheckBox(tr("Run as a task"), this))
    , m_taskNote(new WrapLabel(this))
{
    setObjectName(QStringLiteral("callView"));
    setWindowTitle(tr("Call %1").arg(itemName()));
    nameLabel()->setObjectName(QStringLiteral("callToolName"));
    primaryButton()->setObjectName(QStringLiteral("callButton"));

    // What it may do, and whether Folio calls it.
    m_annotations->setObjectName(QStringLiteral("callAnnotations"));
    m_annotations->setTextFormat(Qt::PlainText);
    m_annotations->setText(annotationsText(tool));
    m_risk->setObjectName(QStringLiteral("callRisk"));
    m_risk->setTextFormat(Qt::PlainText);
    m_risk->setText(riskText(tool));
    m_risk->setVisible(!m_risk->text().isEmpty());
    m_refusalLabel->setObjectName(QStringLiteral("callRefusal"));
    m_refusalLabel->setTextFormat(Qt::PlainText);
    m_refusalLabel->setText(tr("Folio does not call this tool: %1").arg(m_refusal));
    m_refusalLabel->setVisible(!m_refusal.isEmpty());
    for (QWidget *w : {m_annotations, m_risk, m_refusalLabel})
        addHeaderWidget(w);

    // The arguments and the confirmation.
    m_form->setObjectName(QStringLiteral("callForm"));
    if (session)
        m_form->setSuggestions(ArgumentSuggestions(session->config().name, itemName()));
    m_form->setSchema(tool.value(QStringLiteral("inputSchema")).toObject());
    connect(m_form, &SchemaForm::submitted, this, &CallView::call);
    setArgumentsWidget(m_form);
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
    // A task: the server keeps it and Folio follows it in the Tasks tab.
    const QString taskSupport = TaskBoard::taskSupport(tool);
    m_asTask->setObjectName(QStringLiteral("callAsTask"));
    m_asTask->setToolTip(tr("The server runs it in the background and keeps it for its ttl; the Tasks tab "
                            "follows it to its end (execution.taskSupport: %1)")
                             .arg(taskSupport));
    m_asTask->setVisible(session && session->tasks()->offersTasks() && TaskBoard::toolRunsAsTask(tool));
    if (taskSupport == QLatin1String("required")) {
        m_asTask->setChecked(true);
        m_asTask->setEnabled(false);
    }
    m_taskNote->setObjectName(QStringLiteral("callTaskNote"));
    m_taskNote->setTextFormat(Qt::PlainText);
    m_taskNote->setVisible(false);
    addBelowArguments(m_asTask);
    addBelowArguments(m_taskNote);
    connect(m_confirmCall, &QPushButton::clicked, this, &CallView::callNow);
    connect(m_confirmCancel, &QPushButton::clicked, this, [this] {
        setState(State::Idle);
        Q_EMIT statusMessage(tr("%1 was not called").arg(itemName()));
    });
    addBelowArguments(m_confirm);

    // The result: content blocks, then structuredContent with its check.
    if (!m_refusal.isEmpty())
        findChild<WrapLabel *>(QStringLiteral("emptyState"))
            ->setText(tr("This tool cannot be called from Folio."));
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
    auto *contentTitle = new QLabel(tr("Content"), this);
    contentTitle->setFont(titleFont(contentTitle->font()));
    addResultWidget(contentTitle);
    addResultWidget(m_content);
    addResultWidget(m_structured);

    applyColors();
    setState(State::Idle);
}

CallView::~CallView() = default;

bool CallView::asksFirst() const
{
    return item().value(QStringLiteral("annotations")).toObject().value(QStringLiteral("readOnlyHint")) !=
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
        reasons << riskText(item());
    if (!problem.isEmpty())
        reasons << tr("The arguments do not fit the tool's inputSchema (%1); the server will judge them.")
                       .arg(problem);
    if (reasons.isEmpty()) {
        callNow();
        return;
    }
    m_confirmText->setText(tr("Call %1?").arg(itemName()) + QLatin1Char('\n') +
                           reasons.join(QLatin1Char('\n')));
    setState(State::Confirming);
    m_confirmCancel->setFocus();
}

void CallView::callNow()
{
    if (!m_refusal.isEmpty() || m_state == State::Running || !client())
        return;
    if (m_asTask->isVisible() && m_asTask->isChecked() && session()) {
        m_form->rememberValues();
        const int row = session()->tasks()->start(item(), m_form->values());
        m_taskNote->setText(tr("Started as a task at %1: the Tasks tab follows it.")
                                .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
        m_taskNote->setVisible(true);
        setState(State::Idle);
        Q_EMIT statusMessage(tr("Started %1 as a task").arg(itemName()));
        Q_EMIT taskStarted(row);
        return;
    }
    m_state = State::Running; // before start(): a refused call ends inside it
    m_form->rememberValues(); // what was asked, whatever the server makes of it
    start(InvocationRun::callTool(client(), item(), m_form->values(), this),
          tr("Calling %1…").arg(itemName()));
    if (m_state == State::Running)
        setState(State::Running);
}

void CallView::cancel()
{
    if (m_state == State::Confirming) {
        setState(State::Idle);
        return;
    }
    InvocationPane::cancel();
}

void CallView::setState(State state)
{
    m_state = state;
    updateButtons();
    Q_EMIT stateChanged();
}

void CallView::updateButtons()
{
    InvocationPane::updateButtons();
    const bool running = m_state == State::Running;
    m_confirm->setVisible(m_state == State::Confirming);
    primaryButton()->setEnabled(m_refusal.isEmpty() && !running && m_state != State::Confirming && client());
    m_form->setEnabled(!running && m_refusal.isEmpty());
}

void CallView::showOutcome(const InvocationRun &run)
{
    if (m_state != State::Running)
        return;
    const StatusColors colors(palette());
    const QJsonObject result = run.result();
    const QString timing = run.timing();
    QString status;
    QColor statusColor = colors.text();
    switch (run.outcome()) {
    case InvocationRun::Outcome::Cancelled:
        status = tr("Cancelled: notifications/cancelled was sent. %1").arg(timing);
        statusColor = colors.stale();
        break;
    case InvocationRun::Outcome::ToolError:
        status = tr("The tool reported an error (isError: true). %1").arg(timing);
        statusColor = colors.failed();
        break;
    case InvocationRun::Outcome::Failed:
        status = tr("tools/call failed: %1. %2").arg(run.error().describe(), timing);
        statusColor = colors.failed();
        break;
    case InvocationRun::Outcome::Done:
    case InvocationRun::Outcome::Running:
        status = tr("Done: %1").arg(timing);
        statusColor = colors.fresh();
        break;
    }
    m_content->setBlocks(result.value(QStringLiteral("content")).toArray());

    // structuredContent, checked against outputSchema (never hidden when it does not match).
    const bool hasStructured = result.contains(QStringLiteral("structuredContent"));
    const bool hasSchema = item().contains(QStringLiteral("outputSchema"));
    m_structured->setVisible(hasStructured || (hasSchema && !result.isEmpty()));
    if (hasStructured) {
        m_json->setJson(result.value(QStringLiteral("structuredContent")));
        m_tree->expandToDepth(1);
        m_tree->setVisible(true);
    } else {
        m_json->clear();
        m_tree->setVisible(false);
    }
    const ToolResultCheck check = ToolResultCheck::of(item(), result);
    QString checkText = check.summary();
    for (const QString &line : check.violationLines())
        checkText += QStringLiteral("\n• ") + line;
    m_schemaCheck->setText(checkText);
    QPalette cp = palette();
    cp.setColor(QPalette::WindowText, check.failed() ? colors.failed()
                                      : check.verdict == ToolResultCheck::Verdict::Matches
                                          ? colors.fresh()
                                          : colors.mutedText());
    m_schemaCheck->setPalette(cp);

    setState(State::Done);
    showResult(status, statusColor, run);
    Q_EMIT callFinished();
}

void CallView::applyColors()
{
    InvocationPane::applyColors();
    const StatusColors colors(palette());
    QPalette error = palette();
    error.setColor(QPalette::WindowText, colors.failed());
    m_refusalLabel->setPalette(error);
    QPalette warn = palette();
    warn.setColor(QPalette::WindowText, colors.stale());
    m_risk->setPalette(warn);
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, colors.mutedText());
    m_annotations->setPalette(muted);
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

} // namespace folio
