#include "auditdialog.h"

#include "auditor.h"
#include "serversession.h"
#include "statuscolors.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {
enum { ListIdRole = Qt::UserRole + 1, PageRole, JsonRole };
}

AuditDialog::AuditDialog(ServerSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_status(new QLabel(this))
    , m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("Audit %1").arg(session->config().name));
    auto *intro = new QLabel(
        tr("Walks every list and read-only list tool to its end (a tool's required arguments filled "
           "from its schema), then probes the cursors: a tampered or forged cursor, a cursor from "
           "another list, \"\" sent back, a second walk. Polite: one request at a time, a handful of "
           "probes per list."),
        this);
    intro->setWordWrap(true);
    m_status->setWordWrap(true);
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("List / finding"), tr("Severity"), tr("Page"), tr("What happened")});
    m_tree->header()->setStretchLastSection(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_copy =
        addRowCopyActions(m_tree, [](const QModelIndex &row) { return row.data(JsonRole).toJsonValue(); });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_cancel = buttons->addButton(tr("Cancel audit"), QDialogButtonBox::ActionRole);
    m_again = buttons->addButton(tr("Run again"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_auditor)
            m_auditor->cancel(tr("cancelled by the user"));
    });
    connect(m_again, &QPushButton::clicked, this, &AuditDialog::start);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const int page = item->data(0, PageRole).toInt();
        if (page >= 0 && !item->data(0, ListIdRole).toString().isEmpty())
            Q_EMIT pageRequested(item->data(0, ListIdRole).toString(), page);
    });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_status);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(900, 560);
}

AuditDialog::~AuditDialog() = default;

bool AuditDialog::isRunning() const
{
    return m_auditor && m_auditor->isRunning();
}

void AuditDialog::start()
{
    if (!m_session || isRunning())
        return;
    if (m_session->state() != McpClient::State::Connected) {
        m_status->setText(tr("Connect to the server first (Ctrl+Return)."));
        return;
    }
    delete m_auditor;
    m_tree->clear();
    m_auditor = new Auditor(m_session->client(), AuditOptions(), this);
    connect(m_auditor, &Auditor::progress, m_status, &QLabel::setText);
    connect(m_auditor, &Auditor::finished, this, &AuditDialog::showAuditorResult);
    m_cancel->setEnabled(true);
    m_again->setEnabled(false);
    m_auditor->start();
}

int AuditDialog::findingCount() const
{
    return m_auditor ? m_auditor->result().count(Finding::Severity::Error) +
                           m_auditor->result().count(Finding::Severity::Warning) +
                           m_auditor->result().count(Finding::Severity::Info)
                     : 0;
}

void AuditDialog::showAuditorResult()
{
    showResult(m_auditor->result());
    Q_EMIT auditFinished(m_auditor->result());
}

void AuditDialog::showResult(const AuditResult &r)
{
    m_cancel->setEnabled(false);
    m_again->setEnabled(true);
    const StatusColors colors(palette());
    m_tree->clear();
    for (const AuditedList &list : r.lists) {
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
                            : tr("%n page(s) · %1 error(s), %2 warning(s)", nullptr, list.pages)
                                  .arg(errors)
                                  .arg(warnings));
        if (!list.findings.isEmpty())
            top->setIcon(0,
                         colors.severityIcon(errors ? Finding::Severity::Error : Finding::Severity::Warning));
        for (const Finding &f : list.findings) {
            auto *item = new QTreeWidgetItem(top);
            item->setText(0, f.id);
            item->setIcon(1, colors.severityIcon(f.severity));
            item->setText(1, Finding::severityName(f.severity));
            const int page = f.pages.value(0, -1);
            item->setText(2, page >= 0 ? QString::number(page + 1) : QString());
            item->setText(3, f.message);
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
    text +=
        tr(" — %1 error(s), %2 warning(s), %3 request(s) in %4 ms. Double-click a finding to see its page.")
            .arg(errors)
            .arg(warnings)
            .arg(r.requests())
            .arg(r.elapsedMs);
    m_status->setText(text);
}

} // namespace folio
