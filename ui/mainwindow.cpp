#include "mainwindow.h"
namespace folio {
MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent) {}
} // namespace folio
