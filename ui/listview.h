#pragma once

#include "listsource.h"

#include <QJsonObject>
#include <QModelIndex>
#include <QPointer>
#include <QStackedWidget>
#include <QWidget>

class QAction;
class QItemSelectionModel;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QSettings;
class QSplitter;
class QTabWidget;
class QTextEdit;
class QTableView;
class QToolButton;
class QTreeView;

namespace folio {

class ElidedLabel;
class JsonTreeModel;
class PageInspector;
class PagedListModel;
class RowFilter;
class RowFilterModel;
class PageStrip;
class ServerSession;
class ToolArgsForm;
class WrapLabel;

// One list of one server: the lazy table, the page strip above it, the selected row as a JSON
// tree beside it and the page inspector below. It only presents; the model walks the list.
class ListView : public QWidget
{
    Q_OBJECT
public:
    ListView(ServerSession *session, const ListSource &source, QWidget *parent = nullptr);
    ~ListView() override;

    PagedListModel *model() const { return m_model; }
    QString listId() const { return m_listId; }
    QTableView *table() const { return m_table; }
    PageStrip *strip() const { return m_strip; }
    PageInspector *inspector() const { return m_inspector; }
    // The current page, one selection over the model's ledger that the strip, the timeline and
    // this view's table and inspector follow.
    QItemSelectionModel *pageSelection() const { return m_pageSelection; }

    // A replay's list: nothing may ask the server again (restart, refetch, auto-refetch, call);
    // the reason is the disabled controls' tooltip (ServerSession::readOnlyReason()).
    bool isReadOnly() const { return !m_readOnlyReason.isEmpty(); }
    QString readOnlyReason() const { return m_readOnlyReason; }

    void loadAll();
    void cancel();
    void restart();
    void focusFilter();
    // The selected row's item, indented, on the clipboard.
    void copyItemAsJson();
    // Selects a page: its chip, its rows, the inspector.
    void selectPage(int ledgerRow);
    // Selects the walk's page pageIndex (0-based), as a finding or the audit names it; one not
    // loaded yet is selected when it arrives, after Load All Pages. False when it had to load.
    bool selectWalkPage(int pageIndex);
    // Selects the model's row (clearing a filter that hides it) and shows its item.
    void selectItem(int row);
    void setMaskCursors(bool mask);
    QString summary() const;

    // Splitter and column state, per list id, under the settings' current group.
    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

    // Asks for the selected tool's call view (the tools list), the selected prompt's (prompts), or
    // the list tool's own (a list tool's tab: called once, outside its walk). Double-click, the
    // context menu, the toolbar and Ctrl+Return in the table ask the same.
    void requestInvoke();

Q_SIGNALS:
    void statusMessage(const QString &message);
    void summaryChanged();
    void callToolRequested(const QJsonObject &tool);
    void getPromptRequested(const QJsonObject &prompt);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateSummary();
    void applyColors();
    void handleRowSelected(const QModelIndex &current);
    void showPage(int ledgerRow, bool reselectRows);
    void fitInspector();
    void selectFirstFinding();
    void showRowItem(const QJsonObject &item);
    // The definitions lint of the shown item (DefinitionLint): its ids above the item, its messages in
    // the Lint tab; both hidden when it says nothing.
    void showRowLint(const QJsonObject &item);
    void showTableMenu(const QPoint &pos);
    void filterRows(const QString &text);
    void watchSelection();
    // Between the table's indexes and the model's (the same until the filter proxy is in).
    QModelIndex viewIndex(const QModelIndex &source) const;
    QModelIndex sourceIndex(const QModelIndex &view) const;
    void applyToolArguments();
    void sizeColumns();

    QPointer<ServerSession> m_session;
    QPointer<PagedListModel> m_model;
    QString m_listId;
    ListSource m_source;
    RowFilter *m_rowFilter = nullptr;  // made when the filter is first used
    RowFilterModel *m_proxy = nullptr; // between the table and the model from then on
    QItemSelectionModel *m_pageSelection = nullptr;
    PageStrip *m_strip;
    QTableView *m_table;
    QStackedWidget *m_rowStack;
    WrapLabel *m_rowHint;
    QWidget *m_rowPage = nullptr;       // made when a row is first selected: the lint's ids, the tabs
    QLabel *m_rowLint = nullptr;        // the ids the definitions lint finds in the item
    QTextEdit *m_rowLintText = nullptr; // the Lint tab: each finding's message
    QTabWidget *m_rowTabs = nullptr;    // tree, raw JSON, lint
    QTreeView *m_rowTree = nullptr;
    QPlainTextEdit *m_rowRaw = nullptr;
    QJsonObject m_rowItem;              // the item shown
    JsonTreeModel *m_rowJson = nullptr; // its model
    PageInspector *m_inspector;
    ToolArgsForm *m_argsForm = nullptr;
    QSplitter *m_vertical;
    QSplitter *m_horizontal;
    QLineEdit *m_filter;
    ElidedLabel *m_summary;
    QProgressBar *m_progress;
    QToolButton *m_loadAll;
    QToolButton *m_cancel;
    QToolButton *m_restart;
    QToolButton *m_autoRefetch;
    QToolButton *m_invoke = nullptr; // Call… / Get… / Call once…
    // The tool row's buttons show their icon only when the view is too narrow for their words
    // beside the filter and the summary (each word stays in the button's tooltip).
    void fitToolButtons();
    void scaleColumnsToFont();
    QString m_readOnlyReason;
    bool m_columnsSized = false;
    int m_columnsFontHeight = 0;    // the text height the columns' widths were made for (zoom rescales them)
    bool m_inspectorPlaced = false; // the user moved the divider: fitInspector() leaves it
    bool m_itemPanePlaced = false;  // the same for the item pane's width
};

} // namespace folio
