#include "promptview.h"

#include "argumentcompleter.h"
#include "contentblocks.h"
#include "fonts.h"
#include "invocationrun.h"
#include "serversession.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QCompleter>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStringListModel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace folio {

namespace {

constexpr int completionDebounceMs = 200;

} // namespace

PromptView::PromptView(ServerSession *session, const QJsonObject &prompt, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_prompt(prompt)
    , m_get(new QPushButton(tr("Get prompt"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_problem(new WrapLabel(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_resultStack(new QStackedWidget(this))
    , m_empty(new WrapLabel(this))
    , m_status(new WrapLabel(this))
    , m_description(new WrapLabel(this))
    , m_messages(nullptr)
    , m_messagesHost(new QWidget)
    , m_rawToggle(new QToolButton(this))
    , m_raw(new QPlainTextEdit(this))
{
    const QString name = prompt.value(QStringLiteral("name")).toString();
    setObjectName(QStringLiteral("promptView"));
    setWindowTitle(tr("Get prompt %1").arg(name));
    const StatusColors colors(palette());
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, colors.mutedText());

    auto *title = new QLabel(name, this);
    title->setObjectName(QStringLiteral("promptName"));
    title->setFont(titleFont(title->font()));
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QString displayTitle = prompt.value(QStringLiteral("title")).toString();
    auto *subtitle = new QLabel(displayTitle, this);
    subtitle->setVisible(!displayTitle.isEmpty() && displayTitle != name);
    auto *description = new WrapLabel(this);
    description->setTextFormat(Qt::PlainText);
    description->setText(terminalSafe(prompt.value(QStringLiteral("description")).toString()));
    description->setVisible(!description->text().isEmpty());
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(title);
    titleRow->addWidget(subtitle);
    titleRow->addStretch();

    // The arguments.
    auto *left = new QWidget(m_splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 4, 0);
    auto *argsTitle = new QLabel(tr("Arguments"), left);
    argsTitle->setFont(titleFont(argsTitle->font()));
    leftLayout->addWidget(argsTitle);
    auto *formHost = new QWidget;
    auto *form = new QFormLayout(formHost);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->setContentsMargins(0, 0, 0, 0);
    const QJsonArray args = prompt.value(QStringLiteral("arguments")).toArray();
    m_completer = new ArgumentCompleter(
        client(), ArgumentCompleter::promptRef(m_prompt.value(QStringLiteral("name")).toString()), this);
    connect(m_completer, &ArgumentCompleter::completed, this, &PromptView::showCompletions);
    connect(m_completer, &ArgumentCompleter::failed, this,
            [this](const QString &argument, const QString &message) {
                Q_EMIT statusMessage(tr("completion/complete for %1 failed: %2").arg(argument, message));
            });
    const bool completes = m_completer->isOffered();
    for (const QJsonValue &v : args) {
        const QJsonObject a = v.toObject();
        const QString argName = a.value(QStringLiteral("name")).toString();
        if (argName.isEmpty() || m_edits.contains(argName))
            continue;
        const bool required = a.value(QStringLiteral("required")).toBool(false);
        auto *edit = new QLineEdit;
        edit->setObjectName(QStringLiteral("argument:") + argName);
        const QString argDescription = a.value(QStringLiteral("description")).toString();
        edit->setToolTip(argDescription);
        edit->setPlaceholderText(completes ? tr("type for suggestions") : QString());
        m_edits.insert(argName, edit);
        auto *field = new QWidget;
        auto *fv = new QVBoxLayout(field);
        fv->setContentsMargins(0, 0, 0, 0);
        fv->setSpacing(1);
        fv->addWidget(edit);
        QString hint = a.value(QStringLiteral("title")).toString();
        if (!argDescription.isEmpty())
            hint = hint.isEmpty() ? argDescription : hint + QStringLiteral(" — ") + argDescription;
        if (!hint.isEmpty()) {
            auto *h = new WrapLabel;
            h->setObjectName(QStringLiteral("fieldHint"));
            h->setTextFormat(Qt::PlainText);
            h->setText(hint);
            h->setPalette(muted);
            QFont small = h->font();
            small.setPointSizeF(small.pointSizeF() * 0.9);
            h->setFont(small);
            fv->addWidget(h);
        }
        auto *label = new QLabel(required ? argName + QStringLiteral(" *") : argName);
        label->setBuddy(edit);
        form->addRow(label, field);
        connect(edit, &QLineEdit::returnPressed, this, &PromptView::get);
        connect(edit, &QLineEdit::textChanged, this, &PromptView::updateState);
        if (completes) {
            auto *arg = new Argument;
            arg->name = argName;
            arg->model = new QStringListModel(this);
            arg->completer = new QCompleter(arg->model, this);
            arg->completer->setCaseSensitivity(Qt::CaseInsensitive);
            arg->completer->setFilterMode(Qt::MatchContains);
            arg->completer->setCompletionMode(QCompleter::PopupCompletion);
            edit->setCompleter(arg->completer);
            arg->debounce = new QTimer(this);
            arg->debounce->setSingleShot(true);
            arg->debounce->setInterval(completionDebounceMs);
            connect(arg->debounce, &QTimer::timeout, this, [this, argName] { requestCompletion(argName); });
            // Typed by the user (not set by a chosen completion): ask again once the typing pauses.
            connect(edit, &QLineEdit::textEdited, arg->debounce, qOverload<>(&QTimer::start));
            m_arguments.insert(argName, arg);
            m_owned.append(arg);
        }
    }
    if (m_edits.isEmpty()) {
        auto *none = new WrapLabel;
        none->setObjectName(QStringLiteral("emptyState"));
        none->setText(tr("This prompt takes no arguments."));
        none->setPalette(muted);
        form->addRow(none);
    }
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(formHost);
    leftLayout->addWidget(scroll, 1);
    if (!completes && !m_edits.isEmpty()) {
        auto *note = new WrapLabel(left);
        note->setText(tr("The server offers no completions."));
        note->setPalette(muted);
        leftLayout->addWidget(note);
    }
    m_problem->setObjectName(QStringLiteral("promptProblem"));
    QPalette error = palette();
    error.setColor(QPalette::WindowText, colors.failed());
    m_problem->setPalette(error);
    leftLayout->addWidget(m_problem);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_get);
    leftLayout->addLayout(buttons);
    m_get->setObjectName(QStringLiteral("getPrompt"));
    m_get->setToolTip(tr("Send prompts/get with these arguments (Ctrl+Return)"));
    m_get->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancelPrompt"));
    connect(m_get, &QPushButton::clicked, this, &PromptView::get);
    connect(m_cancel, &QPushButton::clicked, this, &PromptView::cancel);
    for (const QKeySequence &keys :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &PromptView::get);
    }

    // The messages.
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(
        tr("Fill in the arguments and press Get prompt (Ctrl+Return).\nThe messages show here."));
    m_empty->setPalette(muted);
    m_status->setObjectName(QStringLiteral("promptStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setFont(titleFont(m_status->font()));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *resultInner = new QWidget;
    auto *resultLayout = new QVBoxLayout(resultInner);
    resultLayout->setContentsMargins(0, 0, 6, 0);
    m_status->setParent(resultInner);
    resultLayout->addWidget(m_status);
    m_description->setParent(resultInner);
    m_description->setTextFormat(Qt::PlainText);
    m_description->setObjectName(QStringLiteral("promptDescription"));
    m_description->setVisible(false);
    resultLayout->addWidget(m_description);
    m_messagesHost->setParent(resultInner);
    m_messages = new QVBoxLayout(m_messagesHost);
    m_messages->setContentsMargins(0, 0, 0, 0);
    m_messages->setSpacing(10);
    resultLayout->addWidget(m_messagesHost);
    m_rawToggle->setParent(resultInner);
    m_rawToggle->setObjectName(QStringLiteral("rawToggle"));
    m_rawToggle->setText(tr("Raw"));
    m_rawToggle->setCheckable(true);
    m_rawToggle->setAutoRaise(true);
    m_rawToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rawToggle->setArrowType(Qt::RightArrow);
    m_raw->setParent(resultInner);
    m_raw->setObjectName(QStringLiteral("promptRaw"));
    m_raw->setReadOnly(true);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_raw->setMinimumHeight(160);
    m_raw->setVisible(false);
    connect(m_rawToggle, &QToolButton::toggled, this, [this](bool on) {
        m_rawToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_raw->setVisible(on);
    });
    resultLayout->addWidget(m_rawToggle, 0, Qt::AlignLeft);
    resultLayout->addWidget(m_raw, 1);
    resultLayout->addStretch();
    auto *resultScroll = new QScrollArea;
    resultScroll->setWidgetResizable(true);
    resultScroll->setFrameShape(QFrame::NoFrame);
    resultScroll->setWidget(resultInner);
    m_resultStack->addWidget(m_empty);
    m_resultStack->addWidget(resultScroll);
    auto *right = new QWidget(m_splitter);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 0, 0, 0);
    auto *messagesTitle = new QLabel(tr("Messages"), right);
    messagesTitle->setFont(titleFont(messagesTitle->font()));
    rightLayout->addWidget(messagesTitle);
    rightLayout->addWidget(m_resultStack, 1);
    m_splitter->addWidget(left);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->restoreState(QSettings().value(SettingsKey::PromptViewSplitter).toByteArray());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->addLayout(titleRow);
    layout->addWidget(description);
    layout->addWidget(m_splitter, 1);
    updateState();
}

PromptView::~PromptView()
{
    QSettings().setValue(SettingsKey::PromptViewSplitter, m_splitter->saveState());
    qDeleteAll(m_owned);
}

McpClient *PromptView::client() const
{
    return m_session ? m_session->client() : nullptr;
}

QJsonObject PromptView::arguments() const
{
    // Values are strings, as the spec has them; empty ones are not sent.
    QJsonObject out;
    for (auto it = m_edits.cbegin(); it != m_edits.cend(); ++it) {
        if (!it.value()->text().isEmpty())
            out.insert(it.key(), it.value()->text());
    }
    return out;
}

QString PromptView::problem() const
{
    QStringList missing;
    for (const QJsonValue &v : m_prompt.value(QStringLiteral("arguments")).toArray()) {
        const QJsonObject a = v.toObject();
        const QString name = a.value(QStringLiteral("name")).toString();
        if (a.value(QStringLiteral("required")).toBool(false) && m_edits.value(name) &&
            m_edits.value(name)->text().isEmpty())
            missing << name;
    }
    return missing.isEmpty() ? QString()
                             : tr("Required, and empty: %1").arg(missing.join(QStringLiteral(", ")));
}

bool PromptView::isRunning() const
{
    return m_run && !m_run->isFinished();
}

QStringList PromptView::completions(const QString &argument) const
{
    const Argument *a = m_arguments.value(argument);
    return a ? a->model->stringList() : QStringList();
}

void PromptView::updateState()
{
    const QString p = problem();
    m_problem->setText(p);
    m_problem->setVisible(!p.isEmpty());
    m_get->setEnabled(!isRunning() && client());
    m_cancel->setVisible(isRunning());
}

void PromptView::requestCompletion(const QString &name)
{
    QLineEdit *edit = m_edits.value(name);
    if (!m_arguments.contains(name) || !edit)
        return;
    QJsonObject context = arguments();
    context.remove(name);
    m_completer->ask(name, edit->text(), context);
}

void PromptView::showCompletions(const QString &name, const QStringList &values)
{
    Argument *a = m_arguments.value(name);
    if (!a)
        return;
    a->model->setStringList(values);
    QLineEdit *e = m_edits.value(name);
    if (e && e->hasFocus() && !values.isEmpty()) {
        a->completer->setCompletionPrefix(QString()); // the server filtered already
        a->completer->complete();
    }
    Q_EMIT completionsArrived(name);
}

void PromptView::get()
{
    if (!client() || isRunning())
        return;
    if (m_run)
        m_run->deleteLater();
    m_run = InvocationRun::getPrompt(client(), m_prompt.value(QStringLiteral("name")).toString(), arguments(), this);
    connect(m_run, &InvocationRun::finished, this, &PromptView::handleFinished);
    m_status->setText(tr("Getting…"));
    updateState();
    if (m_run->isFinished())
        handleFinished();
}

void PromptView::cancel()
{
    if (isRunning())
        m_run->cancel();
}

void PromptView::handleFinished()
{
    if (!m_run)
        return;
    const StatusColors colors(palette());
    const InvocationRun *run = m_run;
    while (m_messages->count() > 0) {
        QLayoutItem *item = m_messages->takeAt(0);
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    m_messageCount = 0;
    const QJsonObject result = run->result();
    const bool failed = run->error().isError();
    QPalette statusPalette = palette();
    if (run->outcome() == InvocationRun::Outcome::Cancelled) {
        m_status->setText(tr("Cancelled: notifications/cancelled was sent."));
        statusPalette.setColor(QPalette::WindowText, colors.stale());
    } else if (failed) {
        m_status->setText(tr("prompts/get failed: %1").arg(run->error().describe()));
        statusPalette.setColor(QPalette::WindowText, colors.failed());
    } else {
        const QJsonArray messages = result.value(QStringLiteral("messages")).toArray();
        const QString description = result.value(QStringLiteral("description")).toString();
        const QString count = messages.size() == 1 ? tr("1 message") : tr("%1 messages").arg(messages.size());
        m_status->setText(tr("%1, %2 ms").arg(count, QString::number(run->totalMs())));
        m_description->setText(description);
        m_description->setVisible(!description.isEmpty());
        QPalette muted = palette();
        muted.setColor(QPalette::WindowText, colors.mutedText());
        for (const QJsonValue &v : messages) {
            const QJsonObject m = v.toObject();
            auto *box = new QFrame;
            box->setObjectName(QStringLiteral("promptMessage"));
            box->setFrameShape(QFrame::StyledPanel);
            auto *bl = new QVBoxLayout(box);
            bl->setContentsMargins(8, 6, 8, 6);
            auto *role = new QLabel(m.value(QStringLiteral("role")).toString(QStringLiteral("(no role)")));
            role->setObjectName(QStringLiteral("messageRole"));
            role->setFont(titleFont(role->font()));
            bl->addWidget(role);
            auto *blocks = new ContentBlocks;
            // One content block per message in the spec; an array is shown as it came.
            const QJsonValue content = m.value(QStringLiteral("content"));
            blocks->setBlocks(content.isArray() ? content.toArray() : QJsonArray{content});
            connect(blocks, &ContentBlocks::statusMessage, this, &PromptView::statusMessage);
            bl->addWidget(blocks);
            m_messages->addWidget(box);
            ++m_messageCount;
        }
        statusPalette.setColor(QPalette::WindowText, colors.fresh());
    }
    m_status->setPalette(statusPalette);
    m_raw->setPlainText(terminalSafe(run->transcript()));
    if (failed && run->outcome() != InvocationRun::Outcome::Cancelled)
        m_rawToggle->setChecked(true);
    m_resultStack->setCurrentIndex(1);
    updateState();
    Q_EMIT statusMessage(m_status->text());
    Q_EMIT promptFinished();
}

} // namespace folio
