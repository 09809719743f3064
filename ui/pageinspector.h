#pragma once

#include "cursordecoder.h"
#include "pagedlistmodel.h"

#include <QJsonObject>
#include <QPointer>
#include <QStackedWidget>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;
class QTreeView;

namespace folio {

class ElidedLabel;
class JsonTreeModel;

// Everything about one page request, for the person debugging it: the cursors raw and decoded, the
// cache hints as sent next to what they mean, timings, the error, the findings, and the actions
// (refetch, restart, copy). It follows its ledger row live and counts down while the page is fresh.
class PageInspector : public QWidget
{
    Q_OBJECT
public:
    // The height that shows the page on show without a scroll (its cursors, hints, error and
    // findings); 0 before a page was first shown.
    int detailHeight() const;
    explicit PageInspector(QWidget *parent = nullptr);
    ~PageInspector() override;

    // Shows one ledger row of model; a null model or -1 shows the empty state.
    void setPage(PagedListModel *model, int ledgerRow);
    void clear() { setPage(nullptr, -1); }
    PagedListModel *listModel() const { return m_model; }
    int ledgerRow() const { return m_row; }
    bool isEmpty() const { return !m_model || m_row < 0; }

    // Masked cursors show their first characters and length only, and hide the decoded trees.
    bool cursorsMasked() const { return m_masked; }
    void setCursorsMasked(bool masked);
    // The decoded cursors as trees under their one-line summaries (off by default; remembered).
    bool decodedTreesShown() const { return m_showTrees; }
    void setDecodedTreesShown(bool shown);

    // What "Copy as JSON" puts on the clipboard: PageExport::pageJson() of the page shown, masked
    // when the inspector masks cursors.
    QJsonObject pageJson() const;

    // A replay's page: Refetch, Retry and Discard all are disabled, with reason as their tooltip.
    void setReadOnly(const QString &reason);

    // Where the keyboard lands in the inspector: the request cursor, else the inspector itself.
    QWidget *focusTarget();

public Q_SLOTS:
    void refetchPage();
    void discardAndRestart();
    void copyAsJson();

Q_SIGNALS:
    // A one-line outcome for the status bar (copied, refetch asked, ...).
    void statusMessage(const QString &message);
    // The failed page shown was asked again: ledgerRow is the new attempt's.
    void pageRetried(int ledgerRow);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct CursorView
    {
        QLineEdit *raw = nullptr;
        QLabel *summary = nullptr;
        QToolButton *expand = nullptr;
        QLabel *opaque = nullptr;
        QTreeView *tree = nullptr;
        JsonTreeModel *model = nullptr;
    };

    void buildUi();
    void buildDetail();
    CursorView makeCursorView(QGridLayout *grid, int row, const QString &label, const QString &name);
    // No decoded view of the cursor: why not in the view's opaque line, or nothing when why is "".
    void hideDecoding(CursorView &view, const QString &why);
    void refresh();
    void refreshCountdown();
    void showCursor(CursorView &view, const std::optional<QString> &cursor, const QString &absentText);
    void updateTimer();
    QString ttlText() const;
    void applyColors();

    QPointer<PagedListModel> m_model;
    int m_row = -1;
    bool m_showTrees = false;
    bool m_masked = false;
    QTimer m_countdown;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_empty = nullptr;
    QWidget *m_detail = nullptr; // made by buildDetail()
    QLabel *m_title = nullptr;
    ElidedLabel *m_state = nullptr;
    QCheckBox *m_mask = nullptr;
    CursorView m_cursor;
    CursorView m_next;
    QLabel *m_ttl = nullptr;
    QLabel *m_scopeIcon = nullptr;
    QLabel *m_scope = nullptr;
    QLabel *m_scopeName = nullptr;
    QLabel *m_timing = nullptr;
    QLabel *m_refetches = nullptr;
    QLabel *m_refetchesName = nullptr;
    QLabel *m_errorName = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_findingsName = nullptr;
    QWidget *m_findings = nullptr;
    QPushButton *m_refetch = nullptr;
    QPushButton *m_restart = nullptr;
    QString m_readOnlyReason; // a replay's: nothing asks the server again
    QPushButton *m_copy = nullptr;
    QList<QLabel *> m_fieldNames;
};

} // namespace folio
