#pragma once
#include <QMainWindow>
namespace folio {
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
};
} // namespace folio
