#include "sessionfiles.h"

#include "bugreport.h"
#include "clientstate.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "sessionrecording.h"
#include "settingskeys.h"
#include "trafficexport.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QListView>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>

namespace folio {

namespace {

bool isSessionFile(const QUrl &url)
{
    return url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".folio"));
}

} // namespace

SessionFiles::SessionFiles(ServerListModel *servers, QListView *list, QWidget *window)
    : QObject(window)
    , m_servers(servers)
    , m_list(list)
    , m_window(window)
    , m_open(new QAction(tr("&Open Session…"), window))
    , m_save(new QAction(tr("&Save Session…"), window))
    , m_export(new QAction(tr("&Export Report…"), window))
{
    m_open->setShortcut(QKeySequence::Open);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save what this server's connection carried, to replay it anywhere"));
    m_export->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    connect(m_open, &QAction::triggered, this, &SessionFiles::openWithDialog);
    connect(m_save, &QAction::triggered, this, &SessionFiles::saveWithDialog);
    connect(m_export, &QAction::triggered, this, &SessionFiles::exportWithDialog);
}

ServerSession *SessionFiles::current() const
{
    return m_servers->session(m_list->currentIndex().row());
}

void SessionFiles::updateActions()
{
    ServerSession *s = current();
    m_save->setEnabled(s && !s->isReplay() && s->state() != ClientState::Disconnected);
    m_export->setEnabled(s != nullptr);
}

void SessionFiles::openWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Session"),
                                                      QSettings().value(SettingsKey::SessionDir).toString(),
                                                      tr("Folio sessions (*.folio);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(SettingsKey::SessionDir, QFileInfo(path).absolutePath());
    QString error;
    if (openSession(path, &error) < 0)
        QMessageBox::warning(m_window, tr("Open Session"), error);
}

void SessionFiles::saveWithDialog()
{
    ServerSession *s = current();
    if (!s)
        return;
    QString name = s->displayName();
    name.replace(QRegularExpression(QStringLiteral("[^\\w.-]+")), QStringLiteral("-"));
    const QString dir = QSettings().value(SettingsKey::SessionDir, QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save Session"),
                                                      QDir(dir).filePath(name + QStringLiteral(".folio")),
                                                      tr("Folio sessions (*.folio)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(SettingsKey::SessionDir, QFileInfo(path).absolutePath());
    QString error;
    if (!saveSession(path, &error))
        QMessageBox::warning(m_window, tr("Save Session"), error);
}

int SessionFiles::openSession(const QString &path, QString *error)
{
    QString why;
    const auto recording = SessionRecording::load(path, &why);
    if (!recording) {
        const QString message = tr("%1 cannot be opened: %2").arg(QFileInfo(path).fileName(), why);
        if (error)
            *error = message;
        Q_EMIT statusMessage(message);
        return -1;
    }
    ServerConfig config = recording->replayConfig(path);
    config.name = m_servers->uniqueName(tr("%1 (replay)").arg(recording->name));
    const int row = m_servers->addServer(config, /*persist=*/false);
    m_list->setCurrentIndex(m_servers->index(row));
    m_servers->session(row)->connectToServer();
    Q_EMIT statusMessage(tr("Replaying %1: no server is contacted").arg(QFileInfo(path).fileName()));
    return row;
}

bool SessionFiles::saveSession(const QString &path, QString *error)
{
    ServerSession *s = current();
    const SessionRecording recording = s ? s->recording() : SessionRecording();
    QString why;
    if (!s || s->isReplay() || recording.events.isEmpty())
        why = s && s->isReplay() ? tr("a replay is saved already: it is its file")
                                 : tr("nothing to save yet: connect to the server first");
    else if (!recording.save(path, &why))
        why = tr("cannot write %1: %2").arg(path, why);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        Q_EMIT statusMessage(why);
        return false;
    }
    QString message =
        tr("Saved the session (%1 events) to %2").arg(QString::number(recording.events.size()), path);
    if (!recording.stripped.isEmpty())
        message += tr("; left out: %1").arg(recording.stripped.join(QStringLiteral("; ")));
    Q_EMIT statusMessage(message);
    return true;
}

bool SessionFiles::carriesSession(const QMimeData *data)
{
    const QList<QUrl> urls = data->urls();
    return std::any_of(urls.begin(), urls.end(), isSessionFile);
}

void SessionFiles::openDropped(const QMimeData *data)
{
    for (const QUrl &url : data->urls()) {
        QString error;
        if (isSessionFile(url) && openSession(url.toLocalFile(), &error) < 0)
            QMessageBox::warning(m_window, tr("Open Session"), error);
    }
}

bool SessionFiles::exportReport(const QString &fileName, QString *error)
{
    ServerSession *s = current();
    if (!s) {
        if (error)
            *error = tr("No server is selected.");
        return false;
    }
    BugReport::Input input = BugReport::Input::fromSession(*s);
    if (s->hasAuditResult()) { // the last audit run in this window
        input.audit = s->auditResult();
        input.auditFinishedAtMs = s->auditFinishedAtMs();
    }
    input.maskCursors = m_maskCursors;
    const BugReportFormat format = BugReport::formatForFile(fileName).value_or(BugReportFormat::Html);
    return TrafficExport::writeFile(fileName, BugReport::render(BugReport::build(input), format), error);
}

void SessionFiles::exportWithDialog()
{
    ServerSession *s = current();
    if (!s)
        return;
    QString name = s->displayName().simplified();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    const QString html = tr("HTML report (*.html *.htm)"), markdown = tr("Markdown report (*.md)"),
                  json = tr("JSON report (*.json)");
    QString filter = html;
    QString fileName = QFileDialog::getSaveFileName(
        m_window, tr("Export Report"),
        QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .filePath(QStringLiteral("%1-report.html").arg(name.isEmpty() ? QStringLiteral("server") : name)),
        QStringList{html, markdown, json}.join(QStringLiteral(";;")), &filter);
    if (fileName.isEmpty())
        return;
    // A name without a known suffix takes the chosen filter's.
    if (!BugReport::formatForFile(fileName))
        fileName += filter == markdown ? QStringLiteral(".md")
                    : filter == json   ? QStringLiteral(".json")
                                       : QStringLiteral(".html");
    QString error;
    if (!exportReport(fileName, &error)) {
        QMessageBox::warning(m_window, tr("Export Report"),
                             tr("Could not write %1: %2").arg(fileName, error));
        return;
    }
    Q_EMIT statusMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(fileName)));
}

} // namespace folio
