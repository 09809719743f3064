#include "filechooser.h"
#include "settingskeys.h"
#include "testsettings.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

// The window's file dialogs start where the user last chose a file, in any of them.
class tst_FileChooser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void startsInDocumentsTheFirstTime();
    void remembersTheLastFolder();
    void aFolderThatWentIsForgotten();
    void saveBytesWritesAndSays();
    void saveBytesSaysWhatWentWrong();
    void cancelSaysNothing();
};

void tst_FileChooser::initTestCase()
{
    testsupport::useEmptyTestSettings("tst_filechooser");
}

void tst_FileChooser::init()
{
    QSettings().remove(SettingsKey::FileDir);
}

void tst_FileChooser::startsInDocumentsTheFirstTime()
{
    QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (documents.isEmpty() || !QDir(documents).exists())
        documents = QDir::homePath();
    QCOMPARE(FileChooser::startPath(QStringLiteral("demo.folio")),
             QDir(documents).filePath(QStringLiteral("demo.folio")));
    QCOMPARE(FileChooser::startPath({}), documents);
}

void tst_FileChooser::remembersTheLastFolder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FileChooser::remember(dir.filePath(QStringLiteral("a-session.folio")));
    QCOMPARE(FileChooser::startPath(QStringLiteral("report.html")),
             dir.filePath(QStringLiteral("report.html")));
    // The folder sessions were remembered under before every dialog shared it: still found.
    QCOMPARE(QSettings().value(QStringLiteral("session/dir")).toString(), QDir(dir.path()).absolutePath());
    // A cancelled dialog leaves it.
    FileChooser::remember({});
    QCOMPARE(FileChooser::startPath({}), QDir(dir.path()).absolutePath());
}

void tst_FileChooser::aFolderThatWentIsForgotten()
{
    QString gone;
    {
        QTemporaryDir dir;
        gone = dir.path();
        FileChooser::remember(dir.filePath(QStringLiteral("x.json")));
    }
    QVERIFY(!FileChooser::startPath({}).startsWith(gone));
}

void tst_FileChooser::saveBytesWritesAndSays()
{
    // The dialog is Qt's; what Folio does with the path chosen is this.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("blob.bin"));
    const QByteArray bytes("\x00\x01 folio", 8);
    const QString said = FileChooser::writeBytes(path, bytes);
    QVERIFY2(said.startsWith(QStringLiteral("Saved ")) && said.contains(QStringLiteral("blob.bin")),
             qPrintable(said));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), bytes);
}

void tst_FileChooser::saveBytesSaysWhatWentWrong()
{
    // A folder no one can create files in, root included.
    const QString path = QStringLiteral("/proc/folio-cannot-write.bin");
    const QString said = FileChooser::writeBytes(path, "bytes");
    QVERIFY2(said.startsWith(QStringLiteral("Could not save ")) && said.contains(path), qPrintable(said));
    QVERIFY(!QFile::exists(path));
}

void tst_FileChooser::cancelSaysNothing()
{
    QVERIFY(FileChooser::writeBytes(QString(), "bytes").isEmpty());
}

QTEST_MAIN(tst_FileChooser)
#include "tst_filechooser.moc"
