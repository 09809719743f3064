#pragma once

#include "clientinput.h"

#include <QDialog>
#include <QPointer>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace folio {

class SchemaForm;
class ServerSession;

// What the window answers when a server asks (either era, InputRequest):
// - an elicitation: a dialog with a form built from its requestedSchema, the schema's defaults
//   filled in, and Accept, Decline and Cancel;
// - sampling: a dialog showing what the server wants a model to answer (its messages, system
//   prompt, token limit); the user types the reply, or declines;
// - roots: answered at once from the server's Roots setting (ServerConfig::roots).
// Each dialog names the server and the request it serves, and closes itself when the answer is no
// longer wanted (the call was cancelled, the connection went).
class WindowInputResponder : public QObject, public InputResponder
{
    Q_OBJECT
public:
    // Lives as long as the session; its dialogs are parented to dialogParent.
    WindowInputResponder(ServerSession *session, QWidget *dialogParent);
    // The window, once there is one (a start-up connect is begun before the window is built).
    void setDialogParent(QWidget *dialogParent) { m_dialogParent = dialogParent; }

    bool answers(InputRequest::Kind kind) const override;
    void respond(InputReply *reply) override;

    // The dialog open now, if any (the newest): for tests and for bringing it forward.
    QDialog *openDialog() const;

private:
    ServerSession *m_session;
    QPointer<QWidget> m_dialogParent;
    QList<QPointer<QDialog>> m_dialogs;
};

// Gives the session the window's answers (a WindowInputResponder, if it has none; else its
// dialogs get dialogParent) and a browser for sign-in pages. Before the session connects: the
// handshake declares what the client answers (elicitation, sampling, roots) once, as it starts.
void attachWindowResponder(ServerSession *session, QWidget *dialogParent);

// The form for one elicitation.
class ElicitationDialog : public QDialog
{
    Q_OBJECT
public:
    ElicitationDialog(const QString &serverName, InputReply *reply, QWidget *parent);

    SchemaForm *form() const { return m_form; }
    QPushButton *acceptButton() const { return m_accept; }

private:
    void updateProblem();

    QPointer<InputReply> m_reply;
    SchemaForm *m_form;
    QLabel *m_problem;
    QPushButton *m_accept;
};

// The reply a person writes for one sampling request.
class SamplingDialog : public QDialog
{
    Q_OBJECT
public:
    SamplingDialog(const QString &serverName, InputReply *reply, QWidget *parent);

    QPlainTextEdit *replyEdit() const { return m_replyEdit; }
    QPushButton *sendButton() const { return m_send; }

private:
    QPointer<InputReply> m_reply;
    QPlainTextEdit *m_replyEdit;
    QPushButton *m_send;
};

} // namespace folio
