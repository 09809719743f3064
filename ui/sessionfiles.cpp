#include "sessionfiles.h"

#include "bugreport.h"
#include "clientstate.h"
#include "filechooser.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "sessionrecording.h"
#include "settingskeys.h"
#include "snapshottaker.h"
#include "trafficexport.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QListView>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace folio {

namespace {

// A server's name as the stem of a suggested file name.
QString fileStem(const QString &name)
{
    QString stem = name.simplified();
    stem.replace(QRegularExpression(QStringLiteral("[^\\w.-]+")), QStringLiteral("-"));
    return stem.isEmpty() ? QStringLiteral("server") : stem;
}

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
    , m_snapshot(new QAction(tr("Save Sna&pshot…"), window))
{
    m_open->setShortcut(QKeySequence::Open);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save what this server's connection carried, to replay it anywhere"));
    m_export->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    connect(m_open, &QAction::triggered, this, &SessionFiles::openWithDialog);
    connect(m_save, &QAction::triggered, this, &SessionFiles::saveWithDialog);
    connect(m_export, &QAction::triggered, this, &SessionFiles::exportWithDialog);
    m_snapshot->setToolTip(tr("Walk every list to its end and save what the server holds, to compare "
                              "later (folio diff)"));
    connect(m_snapshot, &QAction::triggered, this, &SessionFiles::snapshotWithDialog);
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
    m_snapshot->setEnabled(s && s->state() == ClientState::Connected && !m_taker);
}

void SessionFiles::openWithDialog()
{
    const QString path =
        FileChooser::openFile(m_window, tr("Open Session"), tr("Folio sessions (*.folio);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (openSession(path, &error) < 0)
        QMessageBox::warning(m_window, tr("Open Session"), error);
}

void SessionFiles::saveWithDialog()
{
    ServerSession *s = current();
    if (!s)
        return;
    const QString path = FileChooser::saveFile(m_window, tr("Save Session"),
                                               fileStem(s->displayName()) + QStringLiteral(".folio"),
                                               tr("Folio sessions (*.folio)"));
    if (path.isEmpty())
        return;
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
    const QString html = tr("HTML report (*.html *.htm)"), markdown = tr("Markdown report (*.md)"),
                  json = tr("JSON report (*.json)");
    QString filter = html;
    QString fileName = FileChooser::saveFile(
        m_window, tr("Export Report"), fileStem(s->displayName()) + QStringLiteral("-report.html"),
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

void SessionFiles::snapshotWithDialog()
{
    ServerSession *s = current();
    if (!s)
        return;
    const QString path = FileChooser::saveFile(m_window, tr("Save Snapshot"),
                                               fileStem(s->displayName()) + QStringLiteral("-snapshot.json"),
                                               tr("Folio snapshots (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveSnapshot(path, &error))
        QMessageBox::warning(m_window, tr("Save Snapshot"), error);
}

bool SessionFiles::saveSnapshot(const QString &path, QString *error)
{
    ServerSession *s = current();
    QString why;
    if (m_taker)
        why = tr("a snapshot is being taken already");
    else if (!s || !(m_taker = s->takeSnapshot(this)))
        why = tr("nothing to snapshot yet: connect to the server first");
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        Q_EMIT statusMessage(why);
        return false;
    }
    // Progress and cancel: a walk to the end of every list can take a while on a large server.
    m_progress = new QProgressDialog(tr("Walking every list of %1…").arg(s->displayName()), tr("Cancel"), 0,
                                     0, m_window);
    m_progress->setWindowTitle(tr("Save Snapshot"));
    m_progress->setMinimumDuration(500);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    connect(m_progress, &QProgressDialog::canceled, this, &SessionFiles::cancelSnapshot);
    connect(m_taker, &SnapshotTaker::progress, this, [this](const QString &message) {
        if (m_progress)
            m_progress->setLabelText(message);
    });
    connect(m_taker, &SnapshotTaker::finished, this, [this, path] { writeSnapshot(path); });
    Q_EMIT statusMessage(tr("Taking a snapshot of %1…").arg(s->displayName()));
    updateActions();
    return true;
}

void SessionFiles::cancelSnapshot()
{
    if (m_taker)
        m_taker->cancel(tr("cancelled"));
}

void SessionFiles::writeSnapshot(const QString &path)
{
    SnapshotTaker *taker = m_taker;
    m_taker = nullptr;
    taker->deleteLater(); // not from inside its own signal
    if (m_progress) {
        m_progress->deleteLater();
        m_progress = nullptr;
    }
    QString error = taker->error();
    if (error.isEmpty() && !taker->snapshot().save(path, taker->secrets(), &error))
        error = tr("cannot write %1: %2").arg(path, error);
    if (!error.isEmpty()) {
        Q_EMIT statusMessage(tr("No snapshot saved: %1").arg(error));
    } else {
        int items = 0;
        for (const Snapshot::List &list : taker->snapshot().lists)
            items += list.itemCount();
        Q_EMIT statusMessage(
            taker->isComplete()
                ? tr("Saved a snapshot (%n item(s)) to %1", nullptr, items)
                      .arg(QDir::toNativeSeparators(path))
                : tr("Saved a snapshot (%n item(s)) to %1; some lists stopped short", nullptr, items)
                      .arg(QDir::toNativeSeparators(path)));
    }
    updateActions();
    Q_EMIT snapshotFinished(path, error);
}

} // namespace folio
