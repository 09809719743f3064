#include "inputresponder.h"

#include "schemaform.h"
#include "serversession.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace folio {

namespace {

// "Folio asks for tools/call send_draft" → the line under a dialog's title.
QString servingLine(const InputRequest &request)
{
    if (request.askedFor.isEmpty())
        return QObject::tr("The server asks this on its own (%1).").arg(request.method);
    return QObject::tr("The server needs this to finish %1.").arg(request.askedFor);
}

// The text of a sampling message's content (a block or, in 2025-11-25, an array of blocks).
QString contentText(const QJsonValue &content)
{
    QStringList parts;
    const QJsonArray blocks = content.isArray() ? content.toArray() : QJsonArray{content};
    for (const QJsonValue &b : blocks) {
        const QJsonObject block = b.toObject();
        const QString type = block.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("text"))
            parts << block.value(QStringLiteral("text")).toString();
        else
            parts << QObject::tr("[%1 %2]")
                         .arg(type, block.value(QStringLiteral("mimeType")).toString())
                         .simplified();
    }
    return parts.join(QLatin1Char('\n'));
}

} // namespace

WindowInputResponder::WindowInputResponder(ServerSession *session, QWidget *dialogParent)
    : QObject(session)
    , m_session(session)
    , m_dialogParent(dialogParent)
{}

void attachWindowResponder(ServerSession *session, QWidget *dialogParent)
{
    if (!session)
        return;
    if (auto *ours = dynamic_cast<WindowInputResponder *>(session->inputResponder())) {
        if (dialogParent)
            ours->setDialogParent(dialogParent);
        return;
    }
    if (session->inputResponder())
        return; // someone else's (a test's)
    session->setInputResponder(new WindowInputResponder(session, dialogParent));
    // A sign-in's authorization page opens in the desktop's browser.
    session->setSignInBrowser([](const QUrl &url) { QDesktopServices::openUrl(url); });
}

bool WindowInputResponder::answers(InputRequest::Kind) const
{
    // All three: a person is there to answer (or decline), and roots come from the settings.
    return true;
}

void WindowInputResponder::respond(InputReply *reply)
{
    const QString server = m_session->displayName();
    switch (reply->request().kind) {
    case InputRequest::Kind::Roots: {
        QJsonArray roots;
        for (const QString &uri : m_session->config().roots)
            roots.append(QJsonObject{{QStringLiteral("uri"), uri}});
        reply->answer({{QStringLiteral("roots"), roots}});
        return;
    }
    case InputRequest::Kind::Elicitation: {
        auto *dialog = new ElicitationDialog(server, reply, m_dialogParent);
        m_dialogs.append(dialog);
        dialog->show();
        dialog->raise();
        return;
    }
    case InputRequest::Kind::Sampling: {
        auto *dialog = new SamplingDialog(server, reply, m_dialogParent);
        m_dialogs.append(dialog);
        dialog->show();
        dialog->raise();
        return;
    }
    }
}

QDialog *WindowInputResponder::openDialog() const
{
    for (auto it = m_dialogs.crbegin(); it != m_dialogs.crend(); ++it) {
        if (*it && (*it)->isVisible())
            return *it;
    }
    return nullptr;
}

ElicitationDialog::ElicitationDialog(const QString &serverName, InputReply *reply, QWidget *parent)
    : QDialog(parent)
    , m_reply(reply)
    , m_form(new SchemaForm(this))
    , m_problem(new QLabel(this))
    , m_accept(new QPushButton(tr("Accept"), this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 asks").arg(serverName));
    const InputRequest &request = reply->request();
    auto *message = new WrapLabel(this);
    message->setText(terminalSafe(request.params.value(QStringLiteral("message")).toString()));
    message->setFont(QFont(message->font().family(), message->font().pointSize() + 1, QFont::DemiBold));
    auto *serving = new WrapLabel(this);
    serving->setText(servingLine(request));
    serving->setForegroundRole(QPalette::PlaceholderText);

    const QJsonObject schema = request.params.value(QStringLiteral("requestedSchema")).toObject();
    m_form->setSchema(schema);
    m_form->setValues(elicitationDefaults(schema));
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setVisible(!m_form->isEmpty());

    m_problem->setWordWrap(true);
    m_problem->setForegroundRole(QPalette::PlaceholderText);

    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_accept, QDialogButtonBox::AcceptRole);
    QPushButton *decline = buttons->addButton(tr("Decline"), QDialogButtonBox::DestructiveRole);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_accept->setDefault(true);
    decline->setToolTip(tr("Tell the server no (action \"decline\")"));
    cancel->setToolTip(tr("Dismiss without choosing (action \"cancel\")"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(message);
    layout->addWidget(serving);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    resize(qMax(420, sizeHint().width()), qMin(560, qMax(220, sizeHint().height())));

    connect(m_form, &SchemaForm::changed, this, &ElicitationDialog::updateProblem);
    connect(m_form, &SchemaForm::submitted, m_accept, &QPushButton::click);
    connect(m_accept, &QPushButton::clicked, this, [this] {
        if (!m_form->problem().isEmpty())
            return;
        if (m_reply)
            m_reply->answer({{QStringLiteral("action"), QStringLiteral("accept")},
                             {QStringLiteral("content"), m_form->values()}});
        accept();
    });
    connect(decline, &QPushButton::clicked, this, [this] {
        if (m_reply)
            m_reply->decline();
        reject();
    });
    // Cancel, Escape and the title bar's close all dismiss.
    connect(this, &QDialog::rejected, this, [this] {
        if (m_reply && m_reply->isOpen())
            m_reply->dismiss();
    });
    connect(reply, &InputReply::withdrawn, this, [this] {
        m_reply = nullptr;
        reject();
    });
    updateProblem();
}

void ElicitationDialog::updateProblem()
{
    const QString problem = m_form->problem();
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_accept->setEnabled(problem.isEmpty());
}

SamplingDialog::SamplingDialog(const QString &serverName, InputReply *reply, QWidget *parent)
    : QDialog(parent)
    , m_reply(reply)
    , m_replyEdit(new QPlainTextEdit(this))
    , m_send(new QPushButton(tr("Send reply"), this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 asks for a model's reply").arg(serverName));
    const InputRequest &request = reply->request();
    const QJsonObject params = request.params;

    auto *intro = new WrapLabel(this);
    intro->setText(tr("The server asks the client to have a language model answer these messages. "
                      "Folio runs no model: write the reply yourself, or decline."));
    auto *serving = new WrapLabel(this);
    serving->setText(servingLine(request));
    serving->setForegroundRole(QPalette::PlaceholderText);

    QStringList lines;
    const QString system = params.value(QStringLiteral("systemPrompt")).toString();
    if (!system.isEmpty())
        lines << tr("system: %1").arg(system);
    for (const QJsonValue &m : params.value(QStringLiteral("messages")).toArray()) {
        const QJsonObject message = m.toObject();
        lines << QStringLiteral("%1: %2").arg(message.value(QStringLiteral("role")).toString(),
                                              contentText(message.value(QStringLiteral("content"))));
    }
    auto *messages = new QPlainTextEdit(this);
    messages->setReadOnly(true);
    messages->setPlainText(lines.join(QStringLiteral("\n\n")));
    messages->setMaximumHeight(180);
    auto *limits = new QLabel(this);
    QStringList limitText;
    if (params.contains(QStringLiteral("maxTokens")))
        limitText << tr("at most %1 tokens").arg(params.value(QStringLiteral("maxTokens")).toInt());
    const QJsonObject prefs = params.value(QStringLiteral("modelPreferences")).toObject();
    QStringList hints;
    for (const QJsonValue &h : prefs.value(QStringLiteral("hints")).toArray())
        hints << h.toObject().value(QStringLiteral("name")).toString();
    if (!hints.isEmpty())
        limitText << tr("model hints: %1").arg(hints.join(QStringLiteral(", ")));
    limits->setText(limitText.join(QStringLiteral(" · ")));
    limits->setForegroundRole(QPalette::PlaceholderText);
    limits->setVisible(!limitText.isEmpty());

    m_replyEdit->setPlaceholderText(tr("The reply the server receives as the model's"));
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_send, QDialogButtonBox::AcceptRole);
    QPushButton *decline = buttons->addButton(tr("Decline"), QDialogButtonBox::RejectRole);
    m_send->setEnabled(false);
    connect(m_replyEdit, &QPlainTextEdit::textChanged, this,
            [this] { m_send->setEnabled(!m_replyEdit->toPlainText().trimmed().isEmpty()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(serving);
    layout->addWidget(messages);
    layout->addWidget(limits);
    layout->addWidget(m_replyEdit, 1);
    layout->addWidget(buttons);
    resize(520, 460);

    connect(m_send, &QPushButton::clicked, this, [this] {
        if (m_reply)
            m_reply->answer({{QStringLiteral("role"), QStringLiteral("assistant")},
                             {QStringLiteral("content"),
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                          {QStringLiteral("text"), m_replyEdit->toPlainText()}}},
                             {QStringLiteral("model"), QStringLiteral("written by a person in Folio")},
                             {QStringLiteral("stopReason"), QStringLiteral("endTurn")}});
        accept();
    });
    connect(decline, &QPushButton::clicked, this, &QDialog::reject);
    connect(this, &QDialog::rejected, this, [this] {
        if (m_reply && m_reply->isOpen())
            m_reply->decline();
    });
    connect(reply, &InputReply::withdrawn, this, [this] {
        m_reply = nullptr;
        reject();
    });
}

} // namespace folio
