#pragma once

#include "snapshot.h"
#include "snapshotdiff.h"

#include <QPointer>
#include <QWidget>

#include <array>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace folio {

class ElidedLabel;
class ServerListModel;
class ServerSession;
class SnapshotTaker;

// The Compare view (issue 32, docs/diff.md): two sides — snapshot files, live servers of the list
// (each walked to its end with ServerSession::takeSnapshot(), with progress and cancel), or a
// saved server's trusted definitions and what it serves now (its drift) — compared with
// SnapshotDiff. On the left a tree of the changes by list, then by class, with counts; on the
// right the selected change's two sides, the words changed highlighted for a text change and the
// two values pretty-printed side by side, their differing lines marked, for the others. Copy and
// Export write what `folio diff --format markdown` writes (DiffRender: one renderer), or HTML.
// A top-level window of its own, one per comparison.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    // servers: the list the live sides are picked from (may be null: files only).
    explicit CompareView(ServerListModel *servers, QWidget *parent = nullptr);
    ~CompareView() override;

    // File > Compare Snapshots…: an action, parented to window, that opens a new view.
    static QAction *createAction(ServerListModel *servers, QWidget *window);
    // A new view of a saved server's drift: the definitions it is trusted with against those it
    // serves on this connection (session->driftChanges()). nullptr, and why in *error, when the
    // server has no trusted definitions or none walked.
    static CompareView *openDrift(ServerSession *session, ServerListModel *servers, QWidget *window,
                                  QString *error = nullptr);

    // The sides picked (what the Compare button compares): a file, or a server of the list.
    void setFileSide(int side, const QString &path);
    void setServerSide(int side, ServerSession *session);
    // A side's picker: files picked, every server of the list ("Live: …"), and each saved
    // server's kept snapshots (ServerHistory, "Kept: …").
    QComboBox *picker(int side) const { return m_pick.at(side); }
    // Compares the picked sides: at once for files, once the walks end for servers (compared()
    // or failed() follows). False, and why in *error, when it cannot start.
    bool compare(QString *error = nullptr);
    // Two files compared at once.
    bool compareFiles(const QString &before, const QString &after, QString *error = nullptr);
    // Two snapshots compared (changes: SnapshotDiff::compare(a, b) when not given).
    void showComparison(const Snapshot &a, const QString &aName, const Snapshot &b, const QString &bName,
                        const std::optional<QList<SnapshotChange>> &changes = std::nullopt);
    bool isTaking() const;
    void cancel();

    const QList<SnapshotChange> &changes() const { return m_changes; }
    QTreeWidget *tree() const { return m_tree; }
    // The line at the top: the counts, as `folio diff` prints them ("7 changes: 2 breaking, …").
    QString summary() const;
    // Why the last Compare did not give a comparison ("" when it did, or while it runs).
    QString statusText() const;
    // What the view says when it has no change to show ("" when it shows changes).
    QString emptyText() const;
    // Selects the change at this index of changes(); false when there is none.
    bool selectChange(int index);
    int selectedChange() const; // -1 when none
    // The selected change's words (plain text) and the same as the view's HTML.
    QString wordsText() const;
    QString wordsHtml() const;
    // The two sides of the selected change as shown (pretty-printed), and what is marked changed in
    // each: its lines, or for a text the words removed (before) or added (after).
    QString sideText(int side) const;
    QStringList changedLines(int side) const;

    // The comparison as `folio diff --format markdown` writes it, or as HTML.
    QString markdown() const;
    QString html() const;
    // Writes the comparison to path: HTML when its suffix is .html or .htm, else Markdown.
    bool exportTo(const QString &path, QString *error = nullptr);
    // Copy: the selected change (or all when none is) as Markdown; Copy All: all of them.
    void copySelected();
    void copyAll();

Q_SIGNALS:
    void compared();
    void failed(const QString &error);

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildTree();
    void showSelected();
    void showSides(const SnapshotChange *change);
    void fillServers();
    void sideTaken(int side);
    void finishIfReady();
    void setBusy(bool busy, const QString &message = {});
    void exportWithDialog();
    QString sideName(int side) const;

    QPointer<ServerListModel> m_servers;
    std::array<QComboBox *, 2> m_pick{};
    std::array<QPushButton *, 2> m_browse{};
    QPushButton *m_compare;
    QWidget *m_progressRow;
    QLabel *m_progressLabel;
    QProgressBar *m_progressBar;
    ElidedLabel *m_sides;
    QLabel *m_summary;
    QLabel *m_status; // why the last Compare did not compare ("" hidden)
    QStackedWidget *m_stack;
    QLabel *m_empty;
    QTreeWidget *m_tree;
    ElidedLabel *m_title;
    QLabel *m_wordsHeading;
    QTextBrowser *m_words;
    std::array<ElidedLabel *, 2> m_sideHeading{};
    std::array<QPlainTextEdit *, 2> m_sideText{};
    std::array<QStringList, 2> m_changedLines;
    QPushButton *m_copy;
    QPushButton *m_copyAll;
    QPushButton *m_export;

    std::array<QPointer<SnapshotTaker>, 2> m_takers;
    std::array<std::optional<Snapshot>, 2> m_taken;
    std::array<QString, 2> m_takenNames;
    QString m_takeError;

    bool m_hasComparison = false;
    QString m_before, m_after; // where each side came from
    QList<SnapshotChange> m_changes;
};

} // namespace folio
