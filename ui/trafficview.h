#pragma once

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
    QTableView *table() const { return m_table; }

private:
    void updateFilter();
    void showSelected();

    TrafficLogModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QPlainTextEdit *m_text;
    QLineEdit *m_filter;
    QComboBox *m_direction;
    QCheckBox *m_follow;
};

} // namespace folio
