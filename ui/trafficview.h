#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
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

protected:
    void showEvent(QShowEvent *event) override;

private:
    void build();
    void showLog();
    void updateFilter();
    void showSelected();

    QPointer<TrafficLog> m_log;
    TrafficLogModel *m_model = nullptr; // this and the widgets below: made by build()
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_direction = nullptr;
    QCheckBox *m_follow = nullptr;
};

} // namespace folio
