#include "compareview.h"

#include "definitionbaseline.h"
#include "diffrender.h"
#include "elidedlabel.h"
#include "filechooser.h"
#include "fonts.h"
#include "serverhistory.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "snapshottaker.h"
#include "statuscolors.h"
#include "terminaltext.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {

using Class = SnapshotChange::Class;

enum { ChangeRole = Qt::UserRole + 1 }; // the change's index in changes(); -1 on a group
// A side picker's entry: "file" or "server", and whether it is one of a server's kept snapshots.
enum { KindRole = Qt::UserRole + 1, ValueRole, KeptRole };

constexpr qsizetype MaxShownChars = 256 * 1024; // a side's value shown up to this, then cut
constexpr qint64 MaxLineCells = 4'000'000;      // lines × lines compared with an LCS, else by set

QColor classColor(const StatusColors &colors, Class cls)
{
    switch (cls) {
    case Class::Breaking:
        return colors.severity(Finding::Severity::Error);
    case Class::Text:
        return colors.severity(Finding::Severity::Warning);
    default:
        return colors.mutedText();
    }
}

// A class's badge: a rounded box in its colour (vector, crisp at any device pixel ratio).
QIcon classBadge(const StatusColors &colors, Class cls)
{
    QPixmap pixmap(QSize(14, 14) * 2);
    pixmap.setDevicePixelRatio(2);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(classColor(colors, cls));
    p.drawRoundedRect(QRectF(2, 3, 10, 8), 2, 2);
    return QIcon(pixmap);
}

// A value as the side shows it: objects and arrays indented, a string as its text.
QString pretty(const QJsonValue &v)
{
    QString text;
    if (v.isUndefined())
        return {};
    if (v.isObject())
        text = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented)).trimmed();
    else if (v.isArray())
        text = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented)).trimmed();
    else if (v.isString())
        text = v.toString();
    else
        text =
            QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
    if (text.size() > MaxShownChars)
        text = text.left(MaxShownChars) + QStringLiteral("\n…");
    return terminalSafe(text);
}

// Which lines of a and b are not in their longest common subsequence (by set when too large).
void markLines(const QStringList &a, const QStringList &b, QList<bool> *ca, QList<bool> *cb)
{
    ca->fill(true, a.size());
    cb->fill(true, b.size());
    if (qint64(a.size()) * b.size() > MaxLineCells) {
        const QSet<QString> sa(a.cbegin(), a.cend()), sb(b.cbegin(), b.cend());
        for (qsizetype i = 0; i < a.size(); ++i)
            (*ca)[i] = !sb.contains(a.at(i));
        for (qsizetype j = 0; j < b.size(); ++j)
            (*cb)[j] = !sa.contains(b.at(j));
        return;
    }
    const qsizetype n = a.size(), m = b.size();
    QList<int> len((n + 1) * (m + 1), 0);
    for (qsizetype i = n - 1; i >= 0; --i) {
        for (qsizetype j = m - 1; j >= 0; --j)
            len[i * (m + 1) + j] = a.at(i) == b.at(j)
                                       ? len[(i + 1) * (m + 1) + j + 1] + 1
                                       : qMax(len[(i + 1) * (m + 1) + j], len[i * (m + 1) + j + 1]);
    }
    qsizetype i = 0, j = 0;
    while (i < n && j < m) {
        if (a.at(i) == b.at(j)) {
            (*ca)[i++] = false;
            (*cb)[j++] = false;
        } else if (len[(i + 1) * (m + 1) + j] >= len[i * (m + 1) + j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
}

QString listName(const QString &list)
{
    return list.isEmpty() ? QStringLiteral("server") : oneLineSafe(list);
}

} // namespace

CompareView::CompareView(ServerListModel *servers, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_servers(servers)
    , m_compare(new QPushButton(tr("&Compare"), this))
    , m_progressRow(new QWidget(this))
    , m_progressLabel(new QLabel(m_progressRow))
    , m_progressBar(new QProgressBar(m_progressRow))
    , m_sides(new ElidedLabel(this))
    , m_summary(new QLabel(this))
    , m_status(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_empty(new QLabel(this))
    , m_tree(new QTreeWidget(this))
    , m_title(new ElidedLabel(this))
    , m_wordsHeading(new QLabel(tr("Words changed"), this))
    , m_words(new QTextBrowser(this))
    , m_copy(new QPushButton(tr("Cop&y"), this))
    , m_copyAll(new QPushButton(tr("Copy &All as Markdown"), this))
    , m_export(new QPushButton(tr("&Export…"), this))
{
    setWindowTitle(tr("Compare — Folio"));
    setObjectName(QStringLiteral("CompareView"));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1100, 700);

    // The two sides: a file or a server each, then Compare.
    auto *pick = new QGridLayout;
    const QStringList labels{tr("&Before:"), tr("A&fter:")};
    for (int side = 0; side < 2; ++side) {
        m_pick[side] = new QComboBox(this);
        m_pick[side]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        m_pick[side]->setMinimumContentsLength(24);
        m_pick[side]->setAccessibleName(side == 0 ? tr("Before side") : tr("After side"));
        m_browse[side] = new QPushButton(tr("Snapshot File…"), this);
        m_browse[side]->setAccessibleName(side == 0 ? tr("Open the before snapshot")
                                                    : tr("Open the after snapshot"));
        auto *label = new QLabel(labels.at(side), this);
        label->setBuddy(m_pick[side]);
        pick->addWidget(label, side, 0);
        pick->addWidget(m_pick[side], side, 1);
        pick->addWidget(m_browse[side], side, 2);
        connect(m_browse[side], &QPushButton::clicked, this, [this, side] {
            const QString path =
                FileChooser::openFile(this, tr("Open Snapshot"), tr("Snapshots (*.json);;All files (*)"));
            if (!path.isEmpty())
                setFileSide(side, path);
        });
    }
    pick->addWidget(m_compare, 0, 3, 2, 1);
    pick->setColumnStretch(1, 1);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        QString error;
        if (!compare(&error))
            m_status->setText(error);
        m_status->setVisible(!m_status->text().isEmpty());
    });
    fillServers();
    if (m_servers) {
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(m_servers, signal, this, &CompareView::fillServers);
        connect(m_servers, &QAbstractItemModel::modelReset, this, &CompareView::fillServers);
        // A connect kept another snapshot of its server: offered at once.
        connect(m_servers, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                    if (roles.contains(ServerListModel::KeptSnapshotsRole))
                        fillServers();
                });
    }

    // Progress and cancel while a live side is walked.
    auto *progress = new QHBoxLayout(m_progressRow);
    progress->setContentsMargins(0, 0, 0, 0);
    m_progressBar->setRange(0, 0);
    m_progressBar->setMaximumWidth(160);
    auto *cancelButton = new QPushButton(tr("Cancel"), m_progressRow);
    connect(cancelButton, &QPushButton::clicked, this, &CompareView::cancel);
    progress->addWidget(m_progressBar);
    progress->addWidget(m_progressLabel, 1);
    progress->addWidget(cancelButton);
    m_progressRow->hide();

    // What was compared and the counts.
    m_sides->setForegroundRole(QPalette::PlaceholderText);
    m_sides->setElideMode(Qt::ElideMiddle);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->hide();

    // Left: the changes by list, then by class.
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->setAccessibleName(tr("Changes"));
    m_tree->header()->setStretchLastSection(true);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &CompareView::showSelected);

    // Right: the selected change's two sides.
    auto *detail = new QWidget(this);
    auto *dl = new QVBoxLayout(detail);
    dl->setContentsMargins(0, 0, 0, 0);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    dl->addWidget(m_title);
    m_words->setAccessibleName(tr("Words changed"));
    m_words->setOpenLinks(false);
    m_words->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_words->setMaximumHeight(m_words->fontMetrics().lineSpacing() * 9);
    dl->addWidget(m_wordsHeading);
    dl->addWidget(m_words);
    auto *sides = new QSplitter(Qt::Horizontal, detail);
    for (int side = 0; side < 2; ++side) {
        auto *box = new QWidget(sides);
        auto *bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        m_sideHeading[side] = new ElidedLabel(box); // a long name never widens the view
        m_sideHeading[side]->setElideMode(Qt::ElideMiddle);
        m_sideText[side] = new QPlainTextEdit(box);
        m_sideText[side]->setReadOnly(true);
        m_sideText[side]->setFont(fixedFont());
        m_sideText[side]->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        m_sideText[side]->setAccessibleName(side == 0 ? tr("Before") : tr("After"));
        bl->addWidget(m_sideHeading[side]);
        bl->addWidget(m_sideText[side], 1);
        sides->addWidget(box);
    }
    dl->addWidget(sides, 1);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tree);
    split->addWidget(detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 600});
    split->setChildrenCollapsible(false);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setObjectName(QStringLiteral("compareEmpty"));
    m_stack->addWidget(split);
    m_stack->addWidget(m_empty);

    // Copy and Export.
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_copyAll);
    buttons->addWidget(m_export);
    m_copy->setToolTip(tr("The selected change as Markdown (all of them when none is selected)"));
    connect(m_copy, &QPushButton::clicked, this, &CompareView::copySelected);
    connect(m_copyAll, &QPushButton::clicked, this, &CompareView::copyAll);
    connect(m_export, &QPushButton::clicked, this, &CompareView::exportWithDialog);
    auto *copyShortcut = new QAction(this);
    copyShortcut->setShortcut(QKeySequence::Copy);
    copyShortcut->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copyShortcut, &QAction::triggered, this, &CompareView::copySelected);
    m_tree->addAction(copyShortcut);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(pick);
    layout->addWidget(m_progressRow);
    layout->addWidget(m_sides);
    layout->addWidget(m_status);
    layout->addWidget(m_summary);
    layout->addWidget(m_stack, 1);
    layout->addLayout(buttons);

    buildTree();
}

CompareView::~CompareView()
{
    for (const QPointer<SnapshotTaker> &t : m_takers) {
        if (t)
            t->cancel(tr("closed"));
    }
}

QAction *CompareView::createAction(ServerListModel *servers, QWidget *window)
{
    auto *action = new QAction(tr("Co&mpare Snapshots…"), window);
    action->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    action->setStatusTip(tr("Compare two snapshots, a snapshot and a live server, or two servers"));
    QObject::connect(action, &QAction::triggered, window, [servers, window] {
        auto *view = new CompareView(servers, window);
        view->show();
    });
    return action;
}

CompareView *CompareView::openDrift(ServerSession *session, ServerListModel *servers, QWidget *window,
                                    QString *error)
{
    QString why;
    std::optional<Snapshot> trusted;
    if (!session || !session->hasDrift())
        why = tr("no drift to compare: this server's definitions are the trusted ones");
    else if (!(trusted = DefinitionBaseline::load(session->config().name, &why)) && why.isEmpty())
        why = tr("no trusted definitions are kept for this server");
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return nullptr;
    }
    auto *view = new CompareView(servers, window);
    const QString name = oneLineSafe(session->displayName());
    view->showComparison(*trusted, tr("%1: trusted definitions").arg(name), session->walkedDefinitions(),
                         tr("%1: now").arg(name), session->driftChanges());
    view->setWindowTitle(tr("Drift of %1 — Folio").arg(name));
    view->show();
    return view;
}

void CompareView::fillServers()
{
    for (QComboBox *combo : m_pick) {
        const QVariant current = combo->currentData(ValueRole);
        // Files picked stay; the servers and their kept snapshots are listed again.
        for (int i = combo->count() - 1; i >= 0; --i) {
            if (combo->itemData(i, KindRole).toString() == QLatin1String("server") ||
                combo->itemData(i, KeptRole).toBool())
                combo->removeItem(i);
        }
        for (int row = 0; m_servers && row < m_servers->rowCount(); ++row) {
            ServerSession *s = m_servers->session(row);
            combo->addItem(tr("Live: %1").arg(oneLineSafe(s->displayName())));
            combo->setItemData(combo->count() - 1, QStringLiteral("server"), KindRole);
            combo->setItemData(combo->count() - 1, QVariant::fromValue<QObject *>(s), ValueRole);
        }
        // Each saved server's snapshot history (Server > Snapshot History), newest first.
        for (int row = 0; m_servers && row < m_servers->rowCount(); ++row) {
            const ServerSession *s = m_servers->session(row);
            if (!s->pinsDefinitions())
                continue;
            for (const ServerHistory::Entry &kept : ServerHistory::entries(s->config().name)) {
                combo->addItem(tr("Kept: %1, %2")
                                   .arg(oneLineSafe(s->displayName()),
                                        QLocale().toString(QDateTime::fromMSecsSinceEpoch(kept.takenAtMs),
                                                           QLocale::ShortFormat)));
                const int at = combo->count() - 1;
                combo->setItemData(at, QStringLiteral("file"), KindRole);
                combo->setItemData(at, kept.path, ValueRole);
                combo->setItemData(at, true, KeptRole);
                combo->setItemData(at, kept.path, Qt::ToolTipRole);
            }
        }
        const int at = combo->findData(current, ValueRole);
        if (at >= 0)
            combo->setCurrentIndex(at);
    }
}

void CompareView::setFileSide(int side, const QString &path)
{
    QComboBox *combo = m_pick.at(side);
    int at = combo->findData(path, ValueRole);
    if (at < 0) {
        combo->insertItem(0, oneLineSafe(QFileInfo(path).fileName()));
        combo->setItemData(0, QStringLiteral("file"), KindRole);
        combo->setItemData(0, path, ValueRole);
        combo->setItemData(0, path, Qt::ToolTipRole);
        at = 0;
    }
    combo->setCurrentIndex(at);
}

void CompareView::setServerSide(int side, ServerSession *session)
{
    const int at = m_pick.at(side)->findData(QVariant::fromValue<QObject *>(session), ValueRole);
    if (at >= 0)
        m_pick.at(side)->setCurrentIndex(at);
}

QString CompareView::sideName(int side) const
{
    const QComboBox *combo = m_pick.at(side);
    if (combo->currentData(KindRole).toString() == QLatin1String("file"))
        return combo->currentData(ValueRole).toString();
    return combo->currentText();
}

bool CompareView::compare(QString *error)
{
    QString why;
    if (isTaking())
        why = tr("a comparison is being made already");
    for (int side = 0; side < 2 && why.isEmpty(); ++side) {
        if (m_pick.at(side)->currentIndex() < 0)
            why = tr("pick two sides first: a snapshot file or a server for each");
    }
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    m_taken = {};
    m_takeError.clear();
    m_status->clear();
    m_status->hide();
    for (int side = 0; side < 2; ++side) {
        const QComboBox *combo = m_pick.at(side);
        m_takenNames[side] = sideName(side);
        if (combo->currentData(KindRole).toString() == QLatin1String("file")) {
            QString e;
            m_taken[side] = Snapshot::load(combo->currentData(ValueRole).toString(), &e);
            if (!m_taken[side])
                why = tr("%1: %2").arg(oneLineSafe(m_takenNames[side]), e);
            continue;
        }
        auto *s = qobject_cast<ServerSession *>(combo->currentData(ValueRole).value<QObject *>());
        if (!s || !(m_takers[side] = s->takeSnapshot(this)))
            why = tr("%1 is not connected: connect to it first").arg(oneLineSafe(m_takenNames[side]));
    }
    if (!why.isEmpty()) {
        // A side that started walks no further: nothing waits for it.
        for (QPointer<SnapshotTaker> &t : m_takers) {
            if (t) {
                t->cancel(tr("cancelled"));
                t->deleteLater();
            }
            t = nullptr;
        }
        if (error)
            *error = why;
        Q_EMIT failed(why);
        return false;
    }
    for (int side = 0; side < 2; ++side) {
        if (SnapshotTaker *t = m_takers.at(side)) {
            connect(t, &SnapshotTaker::progress, this,
                    [this](const QString &message) { m_progressLabel->setText(oneLineSafe(message)); });
            connect(t, &SnapshotTaker::finished, this, [this, side] { sideTaken(side); });
        }
    }
    if (isTaking())
        setBusy(true, tr("Walking every list to its end…"));
    else
        finishIfReady();
    return true;
}

bool CompareView::compareFiles(const QString &before, const QString &after, QString *error)
{
    setFileSide(0, before);
    setFileSide(1, after);
    return compare(error);
}

void CompareView::sideTaken(int side)
{
    SnapshotTaker *t = m_takers.at(side);
    m_takers[side] = nullptr;
    if (!t)
        return;
    t->deleteLater(); // not from inside its own signal
    if (t->error().isEmpty())
        m_taken[side] = t->snapshot();
    else if (m_takeError.isEmpty())
        m_takeError = tr("%1: %2").arg(oneLineSafe(m_takenNames.at(side)), t->error());
    finishIfReady();
}

void CompareView::finishIfReady()
{
    if (isTaking())
        return;
    setBusy(false);
    if (!m_takeError.isEmpty() || !m_taken[0] || !m_taken[1]) {
        const QString why = m_takeError.isEmpty() ? tr("the comparison was cancelled") : m_takeError;
        m_status->setText(why);
        m_status->show();
        Q_EMIT failed(why);
        return;
    }
    showComparison(*m_taken[0], m_takenNames[0], *m_taken[1], m_takenNames[1]);
}

bool CompareView::isTaking() const
{
    return m_takers[0] || m_takers[1];
}

void CompareView::cancel()
{
    for (const QPointer<SnapshotTaker> &t : m_takers) {
        if (t)
            t->cancel(tr("cancelled"));
    }
}

void CompareView::setBusy(bool busy, const QString &message)
{
    m_progressRow->setVisible(busy);
    m_progressLabel->setText(message);
    m_compare->setEnabled(!busy);
}

void CompareView::showComparison(const Snapshot &a, const QString &aName, const Snapshot &b,
                                 const QString &bName, const std::optional<QList<SnapshotChange>> &changes)
{
    m_changes = changes ? *changes : SnapshotDiff::compare(a, b);
    m_before = aName;
    m_after = bName;
    m_hasComparison = true;
    buildTree();
    Q_EMIT compared();
}

QString CompareView::summary() const
{
    return m_hasComparison ? DiffRender::countsLine(m_changes) : QString();
}

QString CompareView::statusText() const
{
    return m_status->text();
}

QString CompareView::emptyText() const
{
    return m_stack->currentWidget() == m_empty ? m_empty->text() : QString();
}

void CompareView::buildTree()
{
    m_tree->clear();
    const StatusColors colors(palette());
    QPalette statusPalette = m_status->palette();
    statusPalette.setColor(QPalette::WindowText, colors.severity(Finding::Severity::Error));
    m_status->setPalette(statusPalette);
    m_sides->setText(m_hasComparison ? tr("%1  →  %2").arg(oneLineSafe(m_before), oneLineSafe(m_after))
                                     : QString());
    m_summary->setText(summary());
    m_summary->setVisible(m_hasComparison);
    m_sides->setVisible(m_hasComparison);
    QTreeWidgetItem *first = nullptr;
    // Lists in the diff's order, classes in theirs.
    QStringList lists;
    for (const SnapshotChange &c : std::as_const(m_changes)) {
        if (!lists.contains(c.list))
            lists << c.list;
    }
    for (const QString &list : std::as_const(lists)) {
        auto *listItem = new QTreeWidgetItem(m_tree);
        QStringList counts;
        for (Class cls : SnapshotChange::allClasses()) {
            QList<int> indexes;
            for (int i = 0; i < m_changes.size(); ++i) {
                if (m_changes.at(i).list == list && m_changes.at(i).cls == cls)
                    indexes << i;
            }
            if (indexes.isEmpty())
                continue;
            const QString name = SnapshotChange::className(cls);
            counts << QStringLiteral("%1 %2").arg(indexes.size()).arg(name);
            auto *classItem = new QTreeWidgetItem(listItem);
            classItem->setText(
                0, QStringLiteral("%1 — %2").arg(name, tr("%n change(s)", nullptr, int(indexes.size()))));
            classItem->setIcon(0, classBadge(colors, cls));
            classItem->setForeground(0, cls == Class::Breaking || cls == Class::Text ? classColor(colors, cls)
                                                                                     : colors.text());
            classItem->setData(0, ChangeRole, -1);
            for (int i : std::as_const(indexes)) {
                const SnapshotChange &c = m_changes.at(i);
                auto *item = new QTreeWidgetItem(classItem);
                const QString text =
                    (c.item ? elide(*c.item, 200) + QStringLiteral(": ") : QString()) + elide(c.summary, 400);
                item->setText(0, text);
                item->setIcon(0, classBadge(colors, cls));
                item->setToolTip(0, terminalSafe(c.summary));
                item->setData(0, Qt::AccessibleTextRole, tr("%1 change: %2").arg(name, text));
                item->setData(0, ChangeRole, i);
                if (!first)
                    first = item;
            }
            classItem->setData(0, Qt::AccessibleTextRole, classItem->text(0));
        }
        listItem->setText(0,
                          QStringLiteral("%1 — %2").arg(listName(list), counts.join(QStringLiteral(", "))));
        QFont f = listItem->font(0);
        f.setBold(true);
        listItem->setFont(0, f);
        listItem->setData(0, ChangeRole, -1);
        listItem->setData(0, Qt::AccessibleTextRole, listItem->text(0));
    }
    m_tree->expandAll();
    const bool any = !m_changes.isEmpty();
    m_empty->setText(
        !m_hasComparison
            ? tr("Pick two sides above — two snapshot files, a snapshot and a live server, or two "
                 "servers of the list — and press Compare. The changes show here, by list and "
                 "class.")
            : tr("No changes: the two sides hold the same definitions and pages."));
    m_stack->setCurrentWidget(any ? m_stack->widget(0) : m_empty);
    m_copy->setEnabled(any);
    m_copyAll->setEnabled(m_hasComparison);
    m_export->setEnabled(m_hasComparison);
    if (first)
        m_tree->setCurrentItem(first);
    else
        showSides(nullptr);
}

int CompareView::selectedChange() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(0, ChangeRole).toInt() : -1;
}

bool CompareView::selectChange(int index)
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(0, ChangeRole).toInt() == index && index >= 0) {
            m_tree->setCurrentItem(*it);
            return true;
        }
    }
    return false;
}

void CompareView::showSelected()
{
    const int i = selectedChange();
    showSides(i >= 0 && i < m_changes.size() ? &m_changes.at(i) : nullptr);
}

void CompareView::showSides(const SnapshotChange *c)
{
    const StatusColors colors(palette());
    m_title->setText(
        c ? QStringLiteral("%1 · %2%3")
                .arg(SnapshotChange::className(c->cls), listName(c->list),
                     (c->item ? QStringLiteral(" · ") + oneLineSafe(*c->item) : QString()) +
                         (c->field.isEmpty() ? QString() : QStringLiteral(" · ") + oneLineSafe(c->field)))
          : QString());
    // The words changed: removed struck on a red tint, added on a green one, in the text colour
    // (readable on a light and a dark base).
    const bool words = c && c->words;
    m_wordsHeading->setVisible(words);
    m_words->setVisible(words);
    if (words) {
        const QString text = colors.text().name();
        const QString removed =
            QStringLiteral("background-color:%1; color:%2; text-decoration: line-through;")
                .arg(colors.tint(colors.severity(Finding::Severity::Error), colors.isDark() ? 0.45 : 0.25)
                         .name(),
                     text);
        const QString added =
            QStringLiteral("background-color:%1; color:%2;")
                .arg(colors.tint(colors.fresh(), colors.isDark() ? 0.45 : 0.3).name(), text);
        QString html;
        for (const WordDiff::Part &p : c->words->parts) {
            const QString t =
                terminalSafe(p.text).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
            html += p.op == WordDiff::Op::Same ? t
                                               : QStringLiteral("<span style=\"%1\">%2</span>")
                                                     .arg(p.op == WordDiff::Op::Removed ? removed : added, t);
        }
        m_words->setHtml(html);
    } else {
        m_words->clear();
    }
    // The two values, their differing lines on a tint.
    const std::array<QString, 2> values{c ? pretty(c->before) : QString(), c ? pretty(c->after) : QString()};
    const std::array<QStringList, 2> lines{values[0].split(QLatin1Char('\n')),
                                           values[1].split(QLatin1Char('\n'))};
    std::array<QList<bool>, 2> marked;
    markLines(lines[0], lines[1], &marked[0], &marked[1]);
    const std::array<QString, 2> names{m_before, m_after};
    for (int side = 0; side < 2; ++side) {
        m_sideHeading[side]->setText(side == 0 ? tr("Before — %1").arg(elide(names[side], 200))
                                               : tr("After — %1").arg(elide(names[side], 200)));
        QPlainTextEdit *edit = m_sideText[side];
        edit->clear();
        m_changedLines[side].clear();
        const bool none = !c || (side == 0 ? c->before : c->after).isUndefined();
        edit->setPlaceholderText(
            !c     ? QString()
            : none ? (side == 0 ? tr("Not on this side: added") : tr("Not on this side: removed"))
                   : QString());
        if (none)
            continue;
        const QColor tint =
            colors.tint(side == 0 ? colors.severity(Finding::Severity::Error) : colors.fresh(),
                        colors.isDark() ? 0.35 : 0.2);
        QTextCursor cursor(edit->document());
        if (c->words && c->before.isString() && c->after.isString() && !c->words->whole) {
            // A text: its own words marked, the removed ones before and the added ones after.
            const WordDiff::Op mine = side == 0 ? WordDiff::Op::Removed : WordDiff::Op::Added;
            QTextCharFormat plainChars, markedChars;
            markedChars.setBackground(tint);
            for (const WordDiff::Part &p : c->words->parts) {
                if (p.op != WordDiff::Op::Same && p.op != mine)
                    continue;
                const QString t =
                    terminalSafe(p.text.size() > MaxShownChars ? p.text.left(MaxShownChars) : p.text);
                cursor.insertText(t, p.op == mine ? markedChars : plainChars);
                if (p.op == mine)
                    m_changedLines[side] << t;
            }
            edit->moveCursor(QTextCursor::Start);
            continue;
        }
        QTextBlockFormat plain, changed;
        changed.setBackground(tint);
        for (qsizetype i = 0; i < lines[side].size(); ++i) {
            const bool isChanged = marked[side].value(i) && values[0] != values[1];
            if (i > 0)
                cursor.insertBlock(isChanged ? changed : plain);
            else
                cursor.setBlockFormat(isChanged ? changed : plain);
            cursor.insertText(lines[side].at(i));
            if (isChanged)
                m_changedLines[side] << lines[side].at(i);
        }
        edit->moveCursor(QTextCursor::Start);
    }
}

QString CompareView::wordsText() const
{
    return m_words->isVisibleTo(this) ? m_words->toPlainText() : QString();
}

QString CompareView::wordsHtml() const
{
    return m_words->isVisibleTo(this) ? m_words->toHtml() : QString();
}

QString CompareView::sideText(int side) const
{
    return m_sideText.at(side)->toPlainText();
}

QStringList CompareView::changedLines(int side) const
{
    return m_changedLines.at(side);
}

QString CompareView::markdown() const
{
    return DiffRender::markdown(m_before, m_after, m_changes);
}

QString CompareView::html() const
{
    return DiffRender::html(m_before, m_after, m_changes);
}

bool CompareView::exportTo(const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool asHtml = suffix == QLatin1String("html") || suffix == QLatin1String("htm");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write((asHtml ? html() : markdown()).toUtf8()) < 0 ||
        !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void CompareView::exportWithDialog()
{
    QString selected;
    const QString path = FileChooser::saveFile(this, tr("Export Comparison"), QStringLiteral("diff.md"),
                                               tr("Markdown (*.md);;HTML (*.html)"), &selected);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export Comparison"), tr("%1 cannot be written: %2").arg(path, error));
}

void CompareView::copySelected()
{
    const int i = selectedChange();
    if (i < 0 || i >= m_changes.size()) {
        copyAll();
        return;
    }
    QApplication::clipboard()->setText(DiffRender::markdownChange(m_changes.at(i)));
}

void CompareView::copyAll()
{
    QApplication::clipboard()->setText(markdown());
}

void CompareView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) { // the theme changed: the colours follow
        const int i = selectedChange();
        buildTree();
        selectChange(i);
    }
}

} // namespace folio
