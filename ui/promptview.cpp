#include "promptview.h"

#include "argumentcompleter.h"
#include "contentblocks.h"
#include "fonts.h"
#include "invocationrun.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QCompleter>
#include <QFormLayout>
#include <QFrame>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStringListModel>
#include <QTimer>
#include <QVBoxLayout>

namespace folio {

namespace {

constexpr int completionDebounceMs = 200;

} // namespace

PromptView::PromptView(ServerSession *session, const QJsonObject &prompt, QWidget *parent)
    : InvocationPane(
          session, prompt,
          {tr("Get prompt"), tr("Send prompts/get with these arguments (Ctrl+Return)"), tr("Messages"),
           tr("Fill in the arguments and press Get prompt (Ctrl+Return).\nThe messages show here."),
           SettingsKey::PromptViewSplitter, QStringLiteral("prompt")},
          parent)
    , m_problem(new WrapLabel(this))
    , m_description(new WrapLabel(this))
    , m_messagesHost(new QWidget(this))
{
    setObjectName(QStringLiteral("promptView"));
    setWindowTitle(tr("Get prompt %1").arg(itemName()));
    nameLabel()->setObjectName(QStringLiteral("promptName"));
    primaryButton()->setObjectName(QStringLiteral("getPrompt"));
    const StatusColors colors(palette());
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, colors.mutedText());

    // The arguments.
    auto *formHost = new QWidget;
    auto *form = new QFormLayout(formHost);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->setContentsMargins(0, 0, 0, 0);
    const QJsonArray args = prompt.value(QStringLiteral("arguments")).toArray();
    m_completer = new ArgumentCompleter(client(), ArgumentCompleter::promptRef(itemName()), this);
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
        connect(edit, &QLineEdit::textChanged, this, &PromptView::updateButtons);
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
    setArgumentsWidget(scroll);
    if (!completes && !m_edits.isEmpty()) {
        auto *note = new WrapLabel(this);
        note->setText(tr("The server offers no completions."));
        note->setPalette(muted);
        addBelowArguments(note);
    }
    m_problem->setObjectName(QStringLiteral("promptProblem"));
    QPalette error = palette();
    error.setColor(QPalette::WindowText, colors.failed());
    m_problem->setPalette(error);
    addBelowArguments(m_problem);

    // The messages, under the result's description.
    m_description->setTextFormat(Qt::PlainText);
    m_description->setObjectName(QStringLiteral("promptDescription"));
    m_description->setVisible(false);
    addResultWidget(m_description);
    m_messages = new QVBoxLayout(m_messagesHost);
    m_messages->setContentsMargins(0, 0, 0, 0);
    m_messages->setSpacing(10);
    addResultWidget(m_messagesHost);
    updateButtons();
}

PromptView::~PromptView()
{
    qDeleteAll(m_owned);
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
    for (const QJsonValue &v : item().value(QStringLiteral("arguments")).toArray()) {
        const QJsonObject a = v.toObject();
        const QString name = a.value(QStringLiteral("name")).toString();
        if (a.value(QStringLiteral("required")).toBool(false) && m_edits.value(name) &&
            m_edits.value(name)->text().isEmpty())
            missing << name;
    }
    return missing.isEmpty() ? QString()
                             : tr("Required, and empty: %1").arg(missing.join(QStringLiteral(", ")));
}

QStringList PromptView::completions(const QString &argument) const
{
    const Argument *a = m_arguments.value(argument);
    return a ? a->model->stringList() : QStringList();
}

void PromptView::updateButtons()
{
    InvocationPane::updateButtons();
    const QString p = problem();
    m_problem->setText(p);
    m_problem->setVisible(!p.isEmpty());
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
    start(InvocationRun::getPrompt(client(), itemName(), arguments(), this),
          tr("Getting %1…").arg(itemName()));
}

void PromptView::showOutcome(const InvocationRun &run)
{
    const StatusColors colors(palette());
    while (m_messages->count() > 0) {
        QLayoutItem *item = m_messages->takeAt(0);
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    m_messageCount = 0;
    m_description->setVisible(false);
    const QJsonObject result = run.result();
    if (run.outcome() == InvocationRun::Outcome::Cancelled) {
        showResult(tr("Cancelled: notifications/cancelled was sent."), colors.stale(), run);
    } else if (run.error().isError()) {
        showResult(tr("prompts/get failed: %1").arg(run.error().describe()), colors.failed(), run);
    } else {
        const QJsonArray messages = result.value(QStringLiteral("messages")).toArray();
        const QString description = result.value(QStringLiteral("description")).toString();
        m_description->setText(terminalSafe(description));
        m_description->setVisible(!description.isEmpty());
        for (const QJsonValue &v : messages) {
            const QJsonObject m = v.toObject();
            auto *box = new QFrame;
            box->setObjectName(QStringLiteral("promptMessage"));
            box->setFrameShape(QFrame::StyledPanel);
            auto *bl = new QVBoxLayout(box);
            bl->setContentsMargins(8, 6, 8, 6);
            auto *role = new QLabel(
                oneLineSafe(m.value(QStringLiteral("role")).toString(QStringLiteral("(no role)"))));
            role->setObjectName(QStringLiteral("messageRole"));
            role->setTextFormat(Qt::PlainText);
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
        const QString count = messages.size() == 1 ? tr("1 message") : tr("%1 messages").arg(messages.size());
        showResult(tr("%1, %2 ms").arg(count, QString::number(run.totalMs())), colors.fresh(), run);
    }
    Q_EMIT promptFinished();
}

} // namespace folio
