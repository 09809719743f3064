#include "auditpanel.h"

#include "auditresult.h"
#include "icons.h"
#include "serversession.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "terminaltext.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

namespace {
enum { ListIdRole = Qt::UserRole + 1, PageRole, JsonRole };
}

AuditPanel::AuditPanel(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_tree(new QTreeWidget(this))
    , m_run(new QPushButton(tr("Run audit"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_walks(new QSpinBox(this))
    , m_pause(new QSpinBox(this))
{
    // How hard the audit looks for a list that changes between walks (issue 33): remembered.
    QSettings settings;
    m_walks->setRange(1, 10);
    m_walks->setValue(qBound(1, settings.value(SettingsKey::AuditWalks, 2).toInt(), 10));
    m_walks->setSuffix(tr(" walks"));
    m_walks->setAccessibleName(tr("Walks of each list"));
    m_walks->setToolTip(tr("Walk each list this many times in all and compare each later walk with the "
                           "first: a list whose items, order, pages, hints or cursors change between "
                           "walks of an unchanged server is a finding (unstable-*). 1: no comparison."));
    m_pause->setRange(0, 600);
    m_pause->setValue(qBound(0, settings.value(SettingsKey::AuditWalkPause, 0).toInt(), 600));
    m_pause->setSuffix(tr(" s apart"));
    m_pause->setSpecialValueText(tr("no pause"));
    m_pause->setAccessibleName(tr("Pause between walks, in seconds"));
    m_pause->setToolTip(tr("Wait this long before each walk after the first: a list that changes "
                           "with time (a cache that expires, a cursor that ages) shows it then."));
    connect(m_walks, &QSpinBox::valueChanged, this, [this](int walks) {
        QSettings().setValue(SettingsKey::AuditWalks, walks);
        m_pause->setEnabled(walks > 1);
    });
    connect(m_pause, &QSpinBox::valueChanged, this,
            [](int seconds) { QSettings().setValue(SettingsKey::AuditWalkPause, seconds); });
    m_pause->setEnabled(m_walks->value() > 1);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("List / finding"), tr("Severity"), tr("Page"), tr("What happened")});
    m_tree->header()->setStretchLastSection(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_copy =
        addRowCopyActions(m_tree, [](const QModelIndex &row) { return row.data(JsonRole).toJsonValue(); });
    m_run->setToolTip(tr("Audit the server's paging (Ctrl+Shift+A)"));
    m_run->setIcon(actionIcon(QStringLiteral("audit")));
    m_cancel->setIcon(actionIcon(QStringLiteral("cancel")));
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &AuditPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, &AuditPanel::cancel);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const int page = item->data(0, PageRole).toInt();
        if (page >= 0 && !item->data(0, ListIdRole).toString().isEmpty())
            Q_EMIT pageRequested(item->data(0, ListIdRole).toString(), page);
    });
    // A dock is short: the status and the buttons share one row above the tree.
    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_walks, 0, Qt::AlignTop);
    top->addWidget(m_pause, 0, Qt::AlignTop);
    top->addWidget(m_run, 0, Qt::AlignTop);
    top->addWidget(m_cancel, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);
    showIdle();
}

AuditPanel::~AuditPanel() = default;

void AuditPanel::setSession(ServerSession *session)
{
    if (m_session == session)
        return;
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    if (session) {
        connect(session, &ServerSession::auditStarted, this, &AuditPanel::showSessionState);
        connect(session, &ServerSession::auditProgressed, m_status, &QLabel::setText);
        connect(session, &ServerSession::auditResultChanged, this, &AuditPanel::showSessionState);
        connect(session, &ServerSession::stateChanged, this, [this] {
            // Before any audit the text says whether one can run ("Connect to the server first"):
            // it follows the connection as the button does.
            if (!isRunning() && !m_session->hasAuditResult())
                showIdle();
            else
                m_run->setEnabled(!isRunning() && m_session->state() == ClientState::Connected);
        });
    }
    showSessionState();
}

bool AuditPanel::isRunning() const
{
    return m_session && m_session->isAuditing();
}

void AuditPanel::start()
{
    if (!m_session || isRunning())
        return;
    if (m_session->state() != ClientState::Connected) {
        m_status->setText(tr("Connect to the server first (Ctrl+Return)."));
        return;
    }
    AuditOptions options;
    options.walks = m_walks->value();
    options.walkPauseMs = m_pause->value() * 1000;
    m_session->startAudit(options);
}

void AuditPanel::cancel()
{
    if (m_session)
        m_session->cancelAudit(tr("cancelled by the user"));
}

int AuditPanel::findingCount() const
{
    if (!m_session || !m_session->hasAuditResult())
        return 0;
    const AuditResult &r = m_session->auditResult();
    return r.count(Finding::Severity::Error) + r.count(Finding::Severity::Warning) +
           r.count(Finding::Severity::Info);
}

QString AuditPanel::statusText() const
{
    return m_status->text();
}

void AuditPanel::showIdle()
{
    m_tree->clear();
    m_cancel->setEnabled(false);
    m_run->setText(tr("Run audit"));
    const bool connected = m_session && m_session->state() == ClientState::Connected;
    m_run->setEnabled(connected);
    m_status->setText(
        tr("The audit walks every list and read-only list tool to its end (a tool's required arguments "
           "filled from its schema), then probes the cursors: a tampered or forged cursor, a cursor from "
           "another list, \"\" sent back, more walks compared with the first. Polite: one request at a time, "
           "a handful of probes per list. Its findings join the Findings dock.%1")
            .arg(connected ? QString() : tr(" Connect to the server first (Ctrl+Return).")));
}

void AuditPanel::showSessionState()
{
    // What a run looks at is set before it starts.
    m_walks->setEnabled(!isRunning());
    m_pause->setEnabled(!isRunning() && m_walks->value() > 1);
    if (isRunning()) {
        m_tree->clear();
        m_run->setEnabled(false);
        m_cancel->setEnabled(true);
        m_status->setText(m_session->auditProgress().isEmpty()
                              ? tr("Auditing %1…").arg(m_session->displayName())
                              : m_session->auditProgress());
        return;
    }
    if (m_session && m_session->hasAuditResult()) {
        showResult(m_session->auditResult());
        m_run->setEnabled(m_session->state() == ClientState::Connected);
        return;
    }
    showIdle();
}

void AuditPanel::showResult(const AuditResult &r)
{
    m_cancel->setEnabled(false);
    m_run->setText(tr("Run again"));
    m_run->setEnabled(true);
    const StatusColors colors(palette());
    m_tree->clear();
    // The lists with findings first: a dock is a few rows tall, and they are what it is for.
    QList<const AuditedList *> lists;
    for (const AuditedList &list : r.lists)
        lists.append(&list);
    std::stable_partition(lists.begin(), lists.end(),
                          [](const AuditedList *l) { return !l->findings.isEmpty(); });
    for (const AuditedList *listPtr : std::as_const(lists)) {
        const AuditedList &list = *listPtr;
        auto *top = new QTreeWidgetItem(m_tree);
        top->setText(0, list.id);
        top->setData(0, ListIdRole, list.id);
        top->setData(0, PageRole, -1);
        top->setData(0, JsonRole, QJsonValue(list.toJson()));
        if (!list.isAudited()) {
            top->setText(3, tr("skipped: %1").arg(list.skipped));
            continue;
        }
        const int errors = list.count(Finding::Severity::Error);
        const int warnings = list.count(Finding::Severity::Warning);
        top->setText(3, list.findings.isEmpty()
                            ? tr("%n page(s), no findings", nullptr, list.pages)
                            : tr("%n page(s)", nullptr, list.pages) + QStringLiteral(" · ") +
                                  tr("%n error(s)", nullptr, errors) + QStringLiteral(", ") +
                                  tr("%n warning(s)", nullptr, warnings));
        if (!list.findings.isEmpty())
            top->setIcon(0,
                         colors.severityIcon(errors ? Finding::Severity::Error : Finding::Severity::Warning));
        for (Finding f : list.findings) {
            if (f.source == Finding::Source::Walk) // the audit's own walk; lint keeps its name
                f.source = Finding::Source::Audit;
            auto *item = new QTreeWidgetItem(top);
            item->setText(0, f.id);
            item->setIcon(1, colors.severityIcon(f.severity));
            item->setText(1, Finding::severityName(f.severity));
            const int page = f.pages.value(0, -1);
            item->setText(2, page >= 0 ? QString::number(page + 1) : QString());
            item->setText(3, oneLineSafe(f.message));
            item->setToolTip(3, f.message);
            item->setData(0, ListIdRole, list.id);
            item->setData(0, PageRole, page);
            QJsonObject json = f.toJson();
            json.insert(QStringLiteral("list"), list.id);
            item->setData(0, JsonRole, QJsonValue(json));
        }
        // What the audit did that is not a finding: the arguments it filled, probes it left out.
        for (const QString &note : list.notes) {
            auto *item = new QTreeWidgetItem(top);
            item->setText(0, tr("note"));
            item->setText(3, note);
            item->setToolTip(3, note);
            item->setForeground(0, colors.mutedText());
            item->setForeground(3, colors.mutedText());
            item->setData(0, ListIdRole, list.id);
            item->setData(0, PageRole, -1);
            item->setData(0, JsonRole,
                          QJsonObject{{QStringLiteral("list"), list.id}, {QStringLiteral("note"), note}});
        }
        top->setExpanded(!list.findings.isEmpty());
    }
    for (int c = 0; c < 3; ++c)
        m_tree->resizeColumnToContents(c);
    const int errors = r.count(Finding::Severity::Error);
    const int warnings = r.count(Finding::Severity::Warning);
    QString text = r.aborted.isEmpty() ? tr("Audit complete") : tr("Audit stopped: %1").arg(r.aborted);
    text += QStringLiteral(": ") + tr("%n error(s)", nullptr, errors) + QStringLiteral(", ") +
            tr("%n warning(s)", nullptr, warnings) + QStringLiteral(" \u00b7 ") +
            tr("%n request(s) in %1 ms", nullptr, r.requests()).arg(r.elapsedMs) +
            tr(" \u00b7 double-click a finding for its page");
    m_status->setText(text);
    m_status->setToolTip(tr("The audit's findings are in the Findings dock too, marked \"audit\"; one the "
                            "window's walk shows already is counted once there."));
}

} // namespace folio
