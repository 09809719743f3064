#pragma once

#include "invocationrun.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QToolButton;
class QTreeView;

namespace folio {

class ContentBlocks;
class McpClient;
class ServerSession;
class JsonTreeModel;
class SchemaForm;
class WrapLabel;

// One tool, called once: who it is (name, title, description, annotations), its arguments as a
// SchemaForm, and the call's outcome. A tool that is not marked read-only asks first, inline
// (saying plainly when it may change or delete things); a tool whose x-mcp-header declarations
// are invalid says why and cannot be called. While it runs: progress and Cancel. The result: its
// content blocks, its structuredContent as a tree checked against the outputSchema, isError as
// the tool's own error, a protocol failure where it happened, and every round's raw messages.
class CallView : public QWidget
{
    Q_OBJECT
public:
    enum class State { Idle, Confirming, Running, Done };

    CallView(ServerSession *session, const QJsonObject &tool, QWidget *parent = nullptr);
    ~CallView() override;

    QJsonObject tool() const { return m_tool; }
    SchemaForm *form() const { return m_form; }
    State state() const { return m_state; }
    // The last call (null before the first).
    InvocationRun *run() const { return m_run; }
    // Why it cannot be called (an invalid x-mcp-header declaration); empty when it can.
    QString refusal() const { return m_refusal; }
    // Whether the tool asks before it runs: not annotated readOnlyHint: true.
    bool asksFirst() const;
    // What the tool's annotations say it may do, in a sentence ("" for a read-only tool).
    static QString riskText(const QJsonObject &tool);

    // Call: asks first where it must, else starts at once.
    void call();
    // Starts the call without asking (the confirmation's "Call").
    void callNow();
    void cancel();

    void saveSettings() const;

Q_SIGNALS:
    void statusMessage(const QString &message);
    void stateChanged();
    // The call finished (result, isError, failure or cancel).
    void callFinished();

protected:
    void changeEvent(QEvent *event) override;

private:
    void setState(State state);
    void updateButtons();
    void handleProgress(double progress, double total, const QString &message);
    void handleFinished();
    void applyColors();

    McpClient *client() const;

    QPointer<ServerSession> m_session;
    QJsonObject m_tool;
    QString m_refusal;
    State m_state = State::Idle;
    QPointer<InvocationRun> m_run;

    SchemaForm *m_form;
    QWidget *m_confirm;
    WrapLabel *m_confirmText;
    QPushButton *m_confirmCall;
    QPushButton *m_confirmCancel;
    QPushButton *m_call;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_progressText;
    QSplitter *m_splitter;
    QStackedWidget *m_resultStack;
    WrapLabel *m_emptyResult;
    QWidget *m_resultPage;
    WrapLabel *m_status;
    ContentBlocks *m_content;
    QWidget *m_structured;
    WrapLabel *m_schemaCheck;
    QTreeView *m_tree;
    JsonTreeModel *m_json;
    QToolButton *m_rawToggle;
    QPlainTextEdit *m_raw;
    WrapLabel *m_refusalLabel;
    WrapLabel *m_risk;
};

} // namespace folio
