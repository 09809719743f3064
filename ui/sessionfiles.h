#pragma once

#include "snapshottaker.h"

#include <QObject>
#include <QPointer>

class QAction;
class QListView;
class QMimeData;
class QProgressDialog;
class QWidget;

namespace folio {

class ServerListModel;
class ServerSession;

// What a person keeps from a server and opens again: File > Open Session (a recorded session
// added to the server list as a replay, selected and started; also a .folio file dropped on the
// window), Save Session (what the current server's connection carried), Save Snapshot (every list
// of the current server walked to its end, as `folio snapshot` writes it, with progress and
// cancel) and Export Report (the current server's BugReport, in the format its file's suffix
// names). Each says what it did, or why not, as a status message; the menu's dialogs say a
// failure in a message box too.
class SessionFiles : public QObject
{
    Q_OBJECT
public:
    // servers and list: the server list and its view (the current row is the server acted on);
    // window: the dialogs' parent.
    SessionFiles(ServerListModel *servers, QListView *list, QWidget *window);

    QAction *openAction() const { return m_open; }
    QAction *saveAction() const { return m_save; }
    QAction *exportReportAction() const { return m_export; }
    QAction *saveSnapshotAction() const { return m_snapshot; }

    // The replay's row, or -1 with the reason in *error.
    int openSession(const QString &path, QString *error = nullptr);
    bool saveSession(const QString &path, QString *error = nullptr);
    bool exportReport(const QString &fileName, QString *error = nullptr);
    // Starts the current server's snapshot, to be written to path when its walks end; false (and
    // why in *error) when it cannot start. snapshotFinished() follows a start.
    bool saveSnapshot(const QString &path, QString *error = nullptr);
    bool isTakingSnapshot() const { return m_taker; }
    void cancelSnapshot();
    // Reports leave the cursors out (List > Mask Cursors).
    void setMaskCursors(bool mask) { m_maskCursors = mask; }

    // A drag that carries a .folio file; opening every one of them.
    static bool carriesSession(const QMimeData *data);
    void openDropped(const QMimeData *data);

    // Enables the actions for the current server.
    void updateActions();

Q_SIGNALS:
    void statusMessage(const QString &message);
    // A snapshot started by saveSnapshot() was written to path, or not (error says why).
    void snapshotFinished(const QString &path, const QString &error);

private:
    ServerSession *current() const;
    void openWithDialog();
    void saveWithDialog();
    void exportWithDialog();
    void snapshotWithDialog();
    void writeSnapshot(const QString &path);

    ServerListModel *m_servers;
    QListView *m_list;
    QWidget *m_window;
    QAction *m_open;
    QAction *m_save;
    QAction *m_export;
    QAction *m_snapshot;
    QPointer<SnapshotTaker> m_taker;
    QPointer<QProgressDialog> m_progress;
    bool m_maskCursors = false;
};

} // namespace folio
