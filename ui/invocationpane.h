#pragma once

#include "invocationrun.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTimer;
class QStackedWidget;
class QToolButton;
class QVBoxLayout;

namespace folio {

class McpClient;
class ServerSession;
class WrapLabel;

// What a tool call and a prompt get share: one pane for "an invocation and its result". At the
// top who it is (its name, its title when it differs, its description, and the lines a kind adds);
// on the left the arguments and the primary button (also Ctrl+Return); on the right the result, an
// empty state until the first answer, while a request runs what it is doing (who, the server's
// progress and message, the time so far, Cancel), then a status line in the outcome's colour, what
// the kind shows, and every round raw (opened by itself when the request failed). The split is
// remembered per kind. A kind builds its argument and result widgets, starts an InvocationRun with
// start(), and shows its outcome in showOutcome().
class InvocationPane : public QWidget
{
    Q_OBJECT
public:
    ~InvocationPane() override;

    // The last run (null before the first).
    InvocationRun *run() const { return m_run; }
    bool isRunning() const { return m_run && !m_run->isFinished(); }
    virtual void cancel();

    // Shows the pane as a window of its own over parent's window: titled, within the screen that
    // window is on (centred on it), deleted when closed. Close, Esc and Ctrl+W close it; Esc while a
    // request runs cancels it first.
    void showAsWindow(const QString &title, QSize size);

Q_SIGNALS:
    void statusMessage(const QString &message);

protected:
    struct Kind
    {
        QString primary;      // "Call", "Get prompt"
        QString primaryTip;   // its tooltip
        QString resultTitle;  // "Result", "Messages"
        QString emptyText;    // the result's empty state
        QString splitterKey;  // where the split is remembered
        QString objectPrefix; // "call", "prompt": names the parts for tests and accessibility
    };
    InvocationPane(ServerSession *session, const QJsonObject &item, const Kind &kind, QWidget *parent);

    McpClient *client() const;
    ServerSession *session() const;
    QJsonObject item() const { return m_item; }
    QString itemName() const;

    // Building, in the kind's constructor: lines under the description; the arguments (they take
    // the left column's height) and what goes below them; what goes between the status and Raw.
    void addHeaderWidget(QWidget *widget);
    void setArgumentsWidget(QWidget *widget);
    void addBelowArguments(QWidget *widget);
    void addResultWidget(QWidget *widget, int stretch = 0);
    // The primary button and the shortcuts run this.
    virtual void submit() = 0;

    // Takes the run (replacing the last one), shows it running in the result pane ("Calling
    // get_post…", the server's own text: made safe here), and calls showOutcome() once it ends.
    void start(InvocationRun *run, const QString &working);
    virtual void showOutcome(const InvocationRun &run) = 0;
    // The status line, in a colour; the result page shown, the raw rounds filled (opened on a
    // failure); said in the status bar too.
    void showResult(const QString &status, const QColor &color, const InvocationRun &run);

    QPushButton *primaryButton() const { return m_primary; }
    QLabel *nameLabel() const { return m_name; }
    // Enables the primary button, and shows the running page while the run goes.
    virtual void updateButtons();
    void changeEvent(QEvent *event) override;
    // Colours that follow the palette (light, dark): the kind's own, after the pane's.
    virtual void applyColors();

private:
    void handleProgress(double progress, double total, const QString &message);
    void handleFinished();
    void showElapsed();

    QPointer<ServerSession> m_session;
    QJsonObject m_item;
    Kind m_kind;
    QPointer<InvocationRun> m_run;
    QLabel *m_name;
    QVBoxLayout *m_header;
    QVBoxLayout *m_left;
    QVBoxLayout *m_result;
    QSplitter *m_splitter;
    QPushButton *m_primary;
    QPushButton *m_cancel;
    QPushButton *m_close;
    QWidget *m_running;
    WrapLabel *m_working;
    QProgressBar *m_progress;
    WrapLabel *m_progressText;
    QLabel *m_elapsed;
    QTimer *m_elapsedTick;
    QElapsedTimer m_runClock;
    int m_pageBeforeRun = 0;
    QStackedWidget *m_resultStack;
    WrapLabel *m_empty;
    WrapLabel *m_status;
    QToolButton *m_rawToggle;
    QPlainTextEdit *m_raw;
    int m_resultWidgets = 0;
};

} // namespace folio
