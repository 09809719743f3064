#pragma once

#include "invocationpane.h"

#include <QHash>

class QCompleter;
class QLineEdit;
class QStringListModel;
class QTimer;
class QVBoxLayout;

namespace folio {

class ArgumentCompleter;
class WrapLabel;

// One prompt, got once: who it is, its arguments as line edits (required ones marked, their
// descriptions as hints) completed through completion/complete when the server offers it, and
// the messages the server answers with, each with its role and its content shown readably.
class PromptView : public InvocationPane
{
    Q_OBJECT
public:
    PromptView(ServerSession *session, const QJsonObject &prompt, QWidget *parent = nullptr);
    ~PromptView() override;

    QJsonObject prompt() const { return item(); }
    QLineEdit *argumentEdit(const QString &name) const { return m_edits.value(name); }
    QJsonObject arguments() const;
    // The required arguments left empty ("city"), or "".
    QString problem() const;
    // How many messages the last answer held, as shown.
    int messageCount() const { return m_messageCount; }
    // What completion last offered for an argument.
    QStringList completions(const QString &argument) const;

    void get();

Q_SIGNALS:
    void promptFinished();
    // Completion values arrived for an argument (shown in its completer).
    void completionsArrived(const QString &argument);

protected:
    void submit() override { get(); }
    void showOutcome(const InvocationRun &run) override;
    void updateButtons() override;

private:
    struct Argument
    {
        QString name;
        QCompleter *completer = nullptr;
        QStringListModel *model = nullptr;
        QTimer *debounce = nullptr;
    };

    void requestCompletion(const QString &name);

    QHash<QString, QLineEdit *> m_edits;
    void showCompletions(const QString &name, const QStringList &values);

    ArgumentCompleter *m_completer = nullptr;
    QHash<QString, Argument *> m_arguments;
    QList<Argument *> m_owned;
    int m_messageCount = 0;

    WrapLabel *m_problem;
    WrapLabel *m_description; // the result's description
    QWidget *m_messagesHost;
    QVBoxLayout *m_messages = nullptr;
};

} // namespace folio
