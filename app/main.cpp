#include "mainwindow.h"
#include <QApplication>
int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    folio::MainWindow w;
    w.show();
    return app.exec();
}
