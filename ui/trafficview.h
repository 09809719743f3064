#pragma once

#include "rowcopy.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;

namespace folio {

class TrafficLog;
class TrafficLogModel;

// The traffic log dock: every message in and out (secrets redacted), filterable, with the selected
// message pretty-printed.
class TrafficView : public QWidget
{
    Q_OBJECT
public:
    explicit TrafficView(QWidget *parent = nullptr);
    void setLog(TrafficLog *log);
    QTableView *table(); // makes the view's widgets if not yet made
    // The widgets are made once the view is on screen; its dock calls this when it comes forward.
    void buildWhenOnScreen();

    enum class ExportFormat { JsonLines, Har };
    // Writes the whole log (not only the rows the filter shows) to path; says how it went next to
    // the filter and returns whether it worked. Export… picks the file and calls this.
    bool exportTo(const QString &path, ExportFormat format);
    QString exportStatus() const;
    // The table's context menu: Copy, Copy as JSON (the selected messages), Export….
    RowCopyActions copyActions();
    QAction *exportAction();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void build();
    void showLog();
    void updateFilter();
    void showSelected();
    void exportWithDialog();

    QPointer<TrafficLog> m_log;
    TrafficLogModel *m_model = nullptr; // this and the widgets below: made by build()
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_direction = nullptr;
    QCheckBox *m_follow = nullptr;
    QLabel *m_exportStatus = nullptr;
    RowCopyActions m_copy;
    QAction *m_export = nullptr;
};

} // namespace folio
