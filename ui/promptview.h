#pragma once

#include "invocationrun.h"

#include <QHash>
#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QCompleter;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QStringListModel;
class QTimer;
class QToolButton;
class QVBoxLayout;

namespace folio {

class ArgumentCompleter;
class McpClient;
class ServerSession;
class WrapLabel;

// One prompt, got once: who it is, its arguments as line edits (required ones marked, their
// descriptions as hints) completed through completion/complete when the server offers it, and
// the messages the server answers with, each with its role and its content shown readably.
class PromptView : public QWidget
{
    Q_OBJECT
public:
    PromptView(ServerSession *session, const QJsonObject &prompt, QWidget *parent = nullptr);
    ~PromptView() override;

    QJsonObject prompt() const { return m_prompt; }
    QLineEdit *argumentEdit(const QString &name) const { return m_edits.value(name); }
    QJsonObject arguments() const;
    // The required arguments left empty ("city"), or "".
    QString problem() const;
    // The last get (null before the first).
    InvocationRun *run() const { return m_run; }
    bool isRunning() const;
    // How many messages the last answer held, as shown.
    int messageCount() const { return m_messageCount; }
    // What completion last offered for an argument.
    QStringList completions(const QString &argument) const;

    void get();
    void cancel();

Q_SIGNALS:
    void statusMessage(const QString &message);
    void promptFinished();
    // Completion values arrived for an argument (shown in its completer).
    void completionsArrived(const QString &argument);

private:
    struct Argument
    {
        QString name;
        QCompleter *completer = nullptr;
        QStringListModel *model = nullptr;
        QTimer *debounce = nullptr;
    };

    void requestCompletion(const QString &name);
    void handleFinished();
    void updateState();

    McpClient *client() const;

    QPointer<ServerSession> m_session;
    QJsonObject m_prompt;
    QHash<QString, QLineEdit *> m_edits;
    void showCompletions(const QString &name, const QStringList &values);

    ArgumentCompleter *m_completer = nullptr;
    QHash<QString, Argument *> m_arguments;
    QList<Argument *> m_owned;
    QPointer<InvocationRun> m_run;
    int m_messageCount = 0;

    QPushButton *m_get;
    QPushButton *m_cancel;
    WrapLabel *m_problem;
    QSplitter *m_splitter;
    QStackedWidget *m_resultStack;
    WrapLabel *m_empty;
    WrapLabel *m_status;
    WrapLabel *m_description; // the result's description
    QVBoxLayout *m_messages;
    QWidget *m_messagesHost;
    QToolButton *m_rawToggle;
    QPlainTextEdit *m_raw;
};

} // namespace folio
