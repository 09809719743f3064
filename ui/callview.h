#pragma once

#include "invocationpane.h"

class QCheckBox;
class QTreeView;

namespace folio {

class ContentBlocks;
class JsonTreeModel;
class SchemaForm;
class WrapLabel;

// One tool, called once, in an InvocationPane: its annotations under its description, its
// arguments as a SchemaForm. A tool that is not marked read-only asks first, inline (saying
// plainly when it may change or delete things); a tool whose x-mcp-header declarations are invalid
// says why and cannot be called. The result: its content blocks, its structuredContent as a tree
// checked against the outputSchema, isError as the tool's own error, a protocol failure where it
// happened, and every round's raw messages.
class CallView : public InvocationPane
{
    Q_OBJECT
public:
    enum class State { Idle, Confirming, Running, Done };

    CallView(ServerSession *session, const QJsonObject &tool, QWidget *parent = nullptr);
    ~CallView() override;

    QJsonObject tool() const { return item(); }
    SchemaForm *form() const { return m_form; }
    State state() const { return m_state; }
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
    void cancel() override;
    // "Run as a task": shown where the server runs tools as tasks and this tool may run as one
    // (execution.taskSupport optional; required: checked and fixed). Calling then starts a task on
    // the session's TaskBoard and says taskStarted() instead of waiting here.
    QCheckBox *asTaskBox() const { return m_asTask; }

Q_SIGNALS:
    void stateChanged();
    // The call finished (result, isError, failure or cancel).
    void callFinished();
    // The call was started as a task: row of the session's TaskBoard.
    void taskStarted(int row);

protected:
    void submit() override { call(); }
    void showOutcome(const InvocationRun &run) override;
    void updateButtons() override;
    void applyColors() override;

private:
    void setState(State state);

    QString m_refusal;
    State m_state = State::Idle;

    SchemaForm *m_form;
    QWidget *m_confirm;
    WrapLabel *m_confirmText;
    QPushButton *m_confirmCall;
    QPushButton *m_confirmCancel;
    ContentBlocks *m_content;
    QWidget *m_structured;
    WrapLabel *m_schemaCheck;
    QTreeView *m_tree;
    JsonTreeModel *m_json;
    WrapLabel *m_annotations;
    WrapLabel *m_refusalLabel;
    WrapLabel *m_risk;
    QCheckBox *m_asTask;
    WrapLabel *m_taskNote;
};

} // namespace folio
