#include "pageinspector.h"

#include "copyaction.h"
#include "elidedlabel.h"
#include "fonts.h"
#include "icons.h"
#include "jsontreemodel.h"
#include "pageexport.h"
#include "pageledger.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "ttlclock.h"
#include "wraplabel.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>

namespace folio {

namespace {

constexpr int CountdownTickMs = 250;

QLabel *makeValueLabel(QWidget *parent, const QString &name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    return label;
}

// A tree as tall as its expanded rows (up to a handful), so the inspector shows no empty boxes.
void fitTreeHeight(QTreeView *tree)
{
    int rows = 0;
    std::function<void(const QModelIndex &)> count = [&](const QModelIndex &parent) {
        const int n = tree->model()->rowCount(parent);
        for (int r = 0; r < n && rows < 64; ++r) {
            ++rows;
            const QModelIndex child = tree->model()->index(r, 0, parent);
            if (tree->isExpanded(child))
                count(child);
        }
    };
    count({});
    const int rowHeight = qMax(tree->sizeHintForRow(0), tree->fontMetrics().height() + 2);
    tree->setFixedHeight(qMin(rows, 6) * rowHeight + 2 * tree->frameWidth() + 2);
}

QString itemCount(int n)
{
    return n == 1 ? PageInspector::tr("1 item") : PageInspector::tr("%1 items").arg(n);
}

QString describeBytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

} // namespace

PageInspector::PageInspector(QWidget *parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::ClickFocus); // Go To > Page Inspector lands here while it is empty
    m_showTrees = QSettings().value(SettingsKey::InspectorDecodedTrees, false).toBool();
    m_countdown.setTimerType(Qt::CoarseTimer);
    connect(&m_countdown, &QTimer::timeout, this, &PageInspector::refreshCountdown);
    buildUi();
    refresh();
}

PageInspector::~PageInspector() = default;

int PageInspector::detailHeight() const
{
    auto *scroll = qobject_cast<QScrollArea *>(m_detail);
    if (!scroll || !scroll->widget())
        return 0;
    return scroll->widget()->sizeHint().height() + 2 * scroll->frameWidth();
}

void PageInspector::buildUi()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    auto *empty = new WrapLabel(m_stack);
    empty->setText(tr("Select a page in the strip to inspect it"));
    m_empty = empty;
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(m_empty);
    applyColors();
}

// The page's details: built when a page is first shown (most list views are never asked to
// inspect one, and its two cursor trees and dozen labels were a quarter of a list view's cost).
void PageInspector::buildDetail()
{
    auto *scroll = new QScrollArea(m_stack);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *page = new QWidget(scroll);
    scroll->setWidget(page);
    m_stack->addWidget(scroll);

    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(8);

    // Title: the page, its state, the mask toggle.
    auto *titleRow = new QHBoxLayout;
    m_title = new QLabel(page);
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setFont(titleFont(m_title->font()));
    m_state = new ElidedLabel(page);
    m_state->setObjectName(QStringLiteral("state"));
    m_mask = new QCheckBox(tr("Mask cursors"), page);
    m_mask->setObjectName(QStringLiteral("maskCursors"));
    m_mask->setToolTip(
        tr("Show only the first characters and the length of each cursor (for screen sharing)"));
    connect(m_mask, &QCheckBox::toggled, this, &PageInspector::setCursorsMasked);
    // The actions sit on the title row: reachable however little room the inspector is given.
    m_refetch = new QPushButton(tr("Refetch page"), page);
    m_refetch->setObjectName(QStringLiteral("refetch"));
    m_refetch->setToolTip(tr("Ask for this page again with its own cursor and compare the copies"));
    m_restart = new QPushButton(tr("Discard all"), page);
    m_restart->setObjectName(QStringLiteral("restart"));
    m_restart->setToolTip(tr("Keep every page in the history, struck through, and walk the list again"));
    m_copy = new QPushButton(tr("Copy as JSON"), page);
    m_copy->setObjectName(QStringLiteral("copy"));
    m_refetch->setIcon(actionIcon(QStringLiteral("refetch")));
    m_restart->setIcon(actionIcon(QStringLiteral("discard")));
    m_copy->setIcon(actionIcon(QStringLiteral("copy")));
    m_copy->setToolTip(tr("The page as received, its decoded cursors and its items, for a bug report"));
    connect(m_refetch, &QPushButton::clicked, this, &PageInspector::refetchPage);
    connect(m_restart, &QPushButton::clicked, this, &PageInspector::discardAndRestart);
    connect(m_copy, &QPushButton::clicked, this, &PageInspector::copyAsJson);
    titleRow->addWidget(m_title);
    titleRow->addSpacing(8);
    titleRow->addWidget(m_state, 1);
    titleRow->addWidget(m_refetch);
    titleRow->addWidget(m_restart);
    titleRow->addWidget(m_copy);
    titleRow->addSpacing(8);
    titleRow->addWidget(m_mask);
    layout->addLayout(titleRow);

    // Two columns: the cursors; the hints, timings, error and findings.
    auto *columns = new QHBoxLayout;
    columns->setSpacing(18);
    auto *left = new QGridLayout;
    left->setHorizontalSpacing(10);
    left->setVerticalSpacing(3);
    left->setColumnStretch(1, 1);
    m_cursor = makeCursorView(left, 0, tr("cursor"), QStringLiteral("requestCursor"));
    m_next = makeCursorView(left, 4, tr("nextCursor"), QStringLiteral("nextCursor"));
    left->setRowStretch(8, 1);

    auto *right = new QGridLayout;
    right->setHorizontalSpacing(10);
    right->setVerticalSpacing(5);
    right->setColumnStretch(2, 1);
    auto addName = [this, page, right](int row, const QString &text) {
        auto *name = new QLabel(text, page);
        name->setAlignment(Qt::AlignRight | Qt::AlignTop);
        right->addWidget(name, row, 0);
        m_fieldNames.append(name);
        return name;
    };
    addName(0, tr("ttlMs"));
    m_ttl = makeValueLabel(page, QStringLiteral("ttl"));
    right->addWidget(m_ttl, 0, 1, 1, 2);
    m_scopeName = addName(1, tr("cacheScope"));
    m_scopeIcon = new QLabel(page);
    m_scopeIcon->setObjectName(QStringLiteral("scopeIcon"));
    m_scopeIcon->setFixedSize(16, 16);
    right->addWidget(m_scopeIcon, 1, 1, Qt::AlignTop);
    m_scope = makeValueLabel(page, QStringLiteral("scope"));
    right->addWidget(m_scope, 1, 2);
    addName(2, tr("timing"));
    m_timing = makeValueLabel(page, QStringLiteral("timing"));
    right->addWidget(m_timing, 2, 1, 1, 2);
    m_refetchesName = addName(3, tr("refetches"));
    m_refetches = makeValueLabel(page, QStringLiteral("refetches"));
    right->addWidget(m_refetches, 3, 1, 1, 2);
    m_errorName = addName(4, tr("error"));
    m_error = makeValueLabel(page, QStringLiteral("error"));
    m_error->setTextFormat(Qt::RichText);
    right->addWidget(m_error, 4, 1, 1, 2);
    m_findingsName = addName(5, tr("findings"));
    m_findings = new QWidget(page);
    m_findings->setObjectName(QStringLiteral("findings"));
    auto *findingsLayout = new QVBoxLayout(m_findings);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->setSpacing(4);
    right->addWidget(m_findings, 5, 1, 1, 2);
    right->setRowStretch(6, 1);

    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    layout->addLayout(columns, 1);

    m_detail = scroll;
    applyColors();
}

PageInspector::CursorView PageInspector::makeCursorView(QGridLayout *grid, int row, const QString &label,
                                                        const QString &name)
{
    QWidget *page = grid->parentWidget() ? grid->parentWidget() : m_title->parentWidget();
    CursorView view;
    auto *title = new QLabel(label, page);
    title->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_fieldNames.append(title);
    grid->addWidget(title, row, 0);

    view.raw = new QLineEdit(page);
    view.raw->setObjectName(name + QStringLiteral("Raw"));
    view.raw->setReadOnly(true);
    view.raw->setFont(fixedFont());
    grid->addWidget(view.raw, row, 1);

    // What it decodes to on one line; the tree behind the arrow (one state for both cursors,
    // remembered: the line says most, and the trees were half the inspector's height).
    view.summary = makeValueLabel(page, name + QStringLiteral("Summary"));
    view.summary->setFont(fixedFont());
    view.summary->setWordWrap(false);
    view.expand = new QToolButton(page);
    view.expand->setObjectName(name + QStringLiteral("Expand"));
    view.expand->setAutoRaise(true);
    view.expand->setCheckable(true);
    view.expand->setChecked(m_showTrees);
    view.expand->setArrowType(m_showTrees ? Qt::DownArrow : Qt::RightArrow);
    view.expand->setToolTip(tr("Show the decoded cursor as a tree"));
    connect(view.expand, &QToolButton::toggled, this, &PageInspector::setDecodedTreesShown);
    auto *summaryRow = new QHBoxLayout;
    summaryRow->setSpacing(2);
    summaryRow->addWidget(view.expand);
    summaryRow->addWidget(view.summary, 1);
    grid->addLayout(summaryRow, row + 1, 1);

    view.opaque = makeValueLabel(page, name + QStringLiteral("Opaque"));
    grid->addWidget(view.opaque, row + 2, 1);

    view.model = new JsonTreeModel(this);
    view.tree = new QTreeView(page);
    view.tree->setObjectName(name + QStringLiteral("Tree"));
    view.tree->setModel(view.model);
    view.tree->setHeaderHidden(true);
    view.tree->setColumnHidden(JsonTreeModel::TypeColumn, true);
    view.tree->setUniformRowHeights(true);
    view.tree->setIndentation(14);
    view.tree->header()->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::ResizeToContents);
    view.tree->header()->setStretchLastSection(true);
    grid->addWidget(view.tree, row + 3, 1);
    return view;
}

void PageInspector::setPage(PagedListModel *model, int ledgerRow)
{
    if (model != m_model) {
        if (m_model) {
            m_model->disconnect(this);
            m_model->ledger()->disconnect(this);
        }
        m_model = model;
        if (m_model) {
            PageLedger *ledger = m_model->ledger();
            connect(ledger, &QAbstractItemModel::dataChanged, this,
                    [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                        if (m_row >= topLeft.row() && m_row <= bottomRight.row())
                            refresh();
                    });
            connect(ledger, &QAbstractItemModel::modelReset, this, &PageInspector::clear);
            // Rows of the current walk come and go with restarts: the actions follow.
            connect(m_model->walker(), &PageWalker::walkRestarted, this, &PageInspector::refresh);
            connect(m_model, &QObject::destroyed, this, [this] {
                m_row = -1;
                refresh();
            });
            m_masked = ledger->maskCursors();
        }
    }
    m_row = m_model && ledgerRow >= 0 && ledgerRow < m_model->ledger()->rowCount() ? ledgerRow : -1;
    refresh();
}

void PageInspector::setDecodedTreesShown(bool shown)
{
    if (m_showTrees == shown)
        return;
    m_showTrees = shown;
    QSettings().setValue(SettingsKey::InspectorDecodedTrees, shown);
    if (m_detail) {
        for (QToolButton *b : {m_cursor.expand, m_next.expand}) {
            const QSignalBlocker blocker(b);
            b->setChecked(shown);
            b->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
        }
    }
    refresh();
}

void PageInspector::setCursorsMasked(bool masked)
{
    if (m_masked == masked)
        return;
    m_masked = masked;
    refresh();
}

void PageInspector::showCursor(CursorView &view, const std::optional<QString> &cursor,
                               const QString &absentText)
{
    if (!cursor) {
        view.raw->setText(QString());
        view.raw->setPlaceholderText(absentText);
        view.summary->setText(QString());
        hideDecoding(view, QString());
        return;
    }
    view.raw->setPlaceholderText(QString());
    view.raw->setText(m_masked ? maskCursor(*cursor) : *cursor);
    view.raw->setCursorPosition(0);
    view.raw->setToolTip(m_masked ? QString() : tr("%1 characters").arg(cursor->size()));
    if (cursor->isEmpty()) {
        view.raw->setPlaceholderText(tr("\"\" (the empty string: a valid cursor)"));
        hideDecoding(view, QString());
        return;
    }
    if (m_masked) {
        hideDecoding(view, tr("The decoded view is hidden while cursors are masked."));
        return;
    }
    const CursorDecoding decoding = decodeCursor(*cursor);
    if (decoding.isDecoded()) {
        view.summary->setText(QStringLiteral("\u2192 ") + decoding.summary());
        view.summary->setToolTip(tr("What the cursor holds (a non-normative look inside an opaque value)"));
        view.summary->show();
        view.opaque->hide();
        view.expand->show();
        if (m_showTrees) {
            view.model->setJson(cursorDecodingTree(decoding));
            view.tree->expandAll();
            fitTreeHeight(view.tree);
            view.tree->show();
        } else {
            view.model->clear();
            view.tree->hide();
        }
    } else {
        hideDecoding(view, tr("opaque: %1").arg(decoding.error));
    }
}

void PageInspector::hideDecoding(CursorView &view, const QString &why)
{
    view.summary->hide();
    view.expand->hide();
    view.tree->hide();
    view.model->clear();
    view.opaque->setText(why);
    view.opaque->setVisible(!why.isEmpty());
}

QString PageInspector::ttlText() const
{
    const PageRecord &p = m_model->ledger()->page(m_row);
    const qint64 now = m_model->walker()->ttlClock()->nowMs();
    if (p.state == PageRecord::State::Loading)
        return tr("waiting for the answer\u2026");
    if (p.state == PageRecord::State::Failed || (!p.isSettled() && p.receivedMonoMs < 0))
        return tr("no result");
    if (p.receivedMonoMs < 0)
        return tr("no result");
    if (!p.hintsExpected)
        return p.legacyEra ? tr("no hints (legacy era)") : tr("no hints (tool result)");
    QString text =
        QStringLiteral("%1%2").arg(p.hints.ttlText(), p.hints.hasTtl ? tr(" (as sent)") : QString());
    QString meaning;
    const bool validAsSent = p.hints.hasTtl && TtlClock::isValidTtl(p.hints.ttlMs);
    switch (p.state) {
    case PageRecord::State::Fresh:
        meaning = tr("expires in %1").arg(formatDuration(p.expiresAtMonoMs() - now));
        break;
    case PageRecord::State::Stale:
        meaning = tr("stale at once (effective TTL 0)");
        break;
    case PageRecord::State::Expired:
        meaning = p.expiresAtMonoMs() >= 0
                      ? tr("expired %1 ago").arg(formatDuration(now - p.expiresAtMonoMs()))
                      : tr("expired");
        break;
    case PageRecord::State::Refetching:
        meaning = tr("refetching\u2026");
        break;
    case PageRecord::State::Discarded:
        meaning = tr("discarded");
        break;
    case PageRecord::State::Loading:
    case PageRecord::State::Failed:
        break;
    }
    if (p.effectiveTtlMs > 0 && (!validAsSent || qint64(p.hints.ttlMs.toDouble()) != p.effectiveTtlMs))
        meaning += tr(" \u00b7 effective %1 ms").arg(p.effectiveTtlMs);
    return meaning.isEmpty() ? text : text + QStringLiteral(" \u00b7 ") + meaning;
}

void PageInspector::refreshCountdown()
{
    if (isEmpty() || !m_detail) {
        m_countdown.stop();
        return;
    }
    m_ttl->setText(ttlText());
    const PageRecord &p = m_model->ledger()->page(m_row);
    if (p.state == PageRecord::State::Fresh)
        m_state->setText(
            tr("fresh \u00b7 expires in %1")
                .arg(formatDuration(p.expiresAtMonoMs() - m_model->walker()->ttlClock()->nowMs())));
    updateTimer();
}

void PageInspector::updateTimer()
{
    // A fresh page counts down to its expiry, an expired one up from it ("expired 12 s ago"):
    // a frozen age would say the page expired a moment ago for as long as it is looked at.
    bool counting = !isEmpty() && isVisible();
    if (counting) {
        const PageRecord &p = m_model->ledger()->page(m_row);
        counting = p.state == PageRecord::State::Fresh ||
                   (p.state == PageRecord::State::Expired && p.expiresAtMonoMs() >= 0);
    }
    if (counting && !m_countdown.isActive())
        m_countdown.start(CountdownTickMs);
    else if (!counting)
        m_countdown.stop();
}

void PageInspector::refresh()
{
    if (isEmpty()) {
        m_countdown.stop();
        m_stack->setCurrentWidget(m_empty);
        if (m_detail) {
            m_cursor.model->clear();
            m_next.model->clear();
        }
        return;
    }
    if (!m_detail)
        buildDetail();
    m_stack->setCurrentWidget(m_detail);
    const StatusColors colors(palette());
    const PageRecord &p = m_model->ledger()->page(m_row);
    const qint64 now = m_model->walker()->ttlClock()->nowMs();

    {
        const QSignalBlocker blocker(m_mask);
        m_mask->setChecked(m_masked);
    }
    m_title->setText(
        p.walk == m_model->walker()->currentWalk()
            ? tr("Page %1").arg(p.index + 1)
            : tr("Page %1 (walk %2)").arg(QString::number(p.index + 1), QString::number(p.walk + 1)));
    QString state = PageRecord::stateName(p.state);
    if (p.state == PageRecord::State::Fresh)
        state = tr("fresh \u00b7 expires in %1").arg(formatDuration(p.expiresAtMonoMs() - now));
    else if (p.state == PageRecord::State::Stale && !p.hintsExpected)
        state = p.legacyEra ? tr("no hints (legacy)") : tr("no hints (tool result)");
    else if (p.state == PageRecord::State::Discarded && !p.discardReason.isEmpty())
        state = tr("discarded: %1").arg(p.discardReason);
    else if (p.state == PageRecord::State::Failed)
        state = tr("failed");
    m_state->setText(state);
    QPalette statePalette = m_state->palette();
    const bool legacy = p.receivedMonoMs >= 0 && !p.hintsExpected;
    statePalette.setColor(QPalette::WindowText, legacy ? colors.legacy() : colors.forState(p.state));
    m_state->setPalette(statePalette);

    // Cursors.
    showCursor(m_cursor, p.requestCursor, tr("(none: the first page)"));
    switch (p.next.presence) {
    case NextCursor::Presence::String:
        showCursor(m_next, p.next.text, QString());
        break;
    case NextCursor::Presence::Absent:
        showCursor(m_next, std::nullopt,
                   p.state == PageRecord::State::Failed ? tr("(no result)")
                   : p.isSettled()                      ? tr("absent: the end of the list")
                                                        : tr("(waiting for the answer)"));
        break;
    case NextCursor::Presence::Null:
        showCursor(m_next, std::nullopt, tr("null: the end of the list"));
        break;
    case NextCursor::Presence::WrongType:
        showCursor(m_next, std::nullopt,
                   tr("%1 (not a string)").arg(PageRecord::describeValue(true, p.next.raw)));
        break;
    }

    // Hints.
    m_ttl->setText(ttlText());
    const bool hints = p.hintsExpected && p.receivedMonoMs >= 0 && p.state != PageRecord::State::Failed;
    QPalette ttlPalette = m_ttl->palette();
    ttlPalette.setColor(QPalette::WindowText, p.hintsExpected ? colors.text() : colors.legacy());
    m_ttl->setPalette(ttlPalette);
    m_scopeName->setVisible(hints);
    m_scope->setVisible(hints);
    m_scopeIcon->setVisible(hints);
    if (hints) {
        QString scope = p.hints.scopeText();
        if (p.scope == PageRecord::Scope::Invalid)
            scope += tr(" (not public or private)");
        m_scope->setText(scope);
        m_scopeIcon->setPixmap(colors.scopeIcon(p.scope).pixmap(16, 16));
        m_scopeIcon->setToolTip(StatusColors::scopeName(p.scope));
    }

    // Timings.
    QStringList timing;
    if (p.sentAtMs > 0)
        timing << tr("sent %1").arg(
            QDateTime::fromMSecsSinceEpoch(p.sentAtMs).toString(QStringLiteral("HH:mm:ss.zzz")));
    if (p.latencyMs() >= 0)
        timing << tr("latency %1 ms").arg(p.latencyMs());
    if (p.responseBytes > 0)
        timing << describeBytes(p.responseBytes);
    if (p.isSettled() && p.receivedMonoMs >= 0)
        timing << itemCount(p.itemCount);
    if (p.requestedLimit)
        timing << tr("limit %1").arg(*p.requestedLimit);
    m_timing->setText(timing.isEmpty() ? tr("in flight") : timing.join(QStringLiteral(" \u00b7 ")));
    m_refetchesName->setVisible(p.refetchCount > 0);
    m_refetches->setVisible(p.refetchCount > 0);
    if (p.refetchCount > 0)
        m_refetches->setText(tr("%1 \u00b7 last diff +%2 \u2212%3 ~%4")
                                 .arg(QString::number(p.refetchCount), QString::number(p.diffAdded),
                                      QString::number(p.diffRemoved), QString::number(p.diffChanged)));

    // Error.
    const bool failed = p.error.isError();
    m_errorName->setVisible(failed);
    m_error->setVisible(failed);
    if (failed) {
        QString html;
        const QString red = colors.failed().name();
        if (p.error.kind == McpError::Kind::Rpc) {
            const QString codeName = McpError::rpcCodeName(p.error.code);
            html = QStringLiteral("<b style=\"color:%1\">%2</b>%3")
                       .arg(red, QString::number(p.error.code),
                            codeName.isEmpty() ? QString()
                                               : QStringLiteral(" (%1)").arg(codeName.toHtmlEscaped()));
            if (p.error.code == -32602 &&
                !p.error.message.contains(QLatin1String("cursor"), Qt::CaseInsensitive))
                html += tr(" \u2014 invalid or expired cursor");
        } else {
            html = QStringLiteral("<b style=\"color:%1\">%2</b>").arg(red, McpError::kindName(p.error.kind));
            if (p.error.httpStatus > 0)
                html += QStringLiteral(" HTTP %1").arg(p.error.httpStatus);
        }
        html += QStringLiteral("<br>") + p.error.message.toHtmlEscaped();
        if (!p.error.data.isUndefined()) {
            html += QStringLiteral("<br><code>%1</code>")
                        .arg(JsonTreeModel::preview(p.error.data, 400).toHtmlEscaped());
        }
        m_error->setText(html);
    }

    // Findings: a severity icon, the id, the sentence.
    qDeleteAll(m_findings->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly));
    for (const Finding &f : p.findings) {
        auto *row = new QWidget(m_findings);
        row->setObjectName(QStringLiteral("finding"));
        auto *rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        rowLayout->setSpacing(6);
        auto *icon = new QLabel(row);
        icon->setPixmap(colors.severityIcon(f.severity).pixmap(16, 16));
        icon->setToolTip(Finding::severityName(f.severity));
        icon->setFixedSize(16, 16);
        auto *text = makeValueLabel(row, QStringLiteral("findingText"));
        text->setTextFormat(Qt::RichText);
        text->setText(QStringLiteral("<b>%1</b> %2")
                          .arg(f.id.toHtmlEscaped(), terminalSafe(f.message).toHtmlEscaped()));
        rowLayout->addWidget(icon, 0, Qt::AlignTop);
        rowLayout->addWidget(text, 1);
        m_findings->layout()->addWidget(row);
    }
    if (!p.parting.isEmpty()) {
        // Not a finding (a list may change between walks), but where this walk parts from the one
        // before, as the chip's bar shows it.
        auto *text = makeValueLabel(m_findings, QStringLiteral("partingText"));
        text->setTextFormat(Qt::PlainText);
        text->setText(tr("Parts from the walk before: %1").arg(terminalSafe(p.parting)));
        QPalette palette = text->palette();
        palette.setColor(QPalette::WindowText, colors.info());
        text->setPalette(palette);
        m_findings->layout()->addWidget(text);
    }
    m_findingsName->setVisible(!p.findings.isEmpty() || !p.parting.isEmpty());
    m_findings->setVisible(!p.findings.isEmpty() || !p.parting.isEmpty());

    // Actions: a refetch needs a settled, successful page of the current walk; the walk's failed
    // last page can be asked again instead.
    int first = 0, count = 0;
    const bool inWalk = m_model->rows()->rowsOfPage(m_row, &first, &count);
    const bool retry = inWalk && p.state == PageRecord::State::Failed;
    m_refetch->setText(retry ? tr("Retry page") : tr("Refetch page"));
    m_refetch->setToolTip(retry ? tr("Ask for this page again with the same cursor and go on from there "
                                     "(the failed attempt stays in the history)")
                                : tr("Ask for this page again with its own cursor and compare the copies"));
    m_refetch->setEnabled(m_readOnlyReason.isEmpty() &&
                          (retry ? m_model->walker()->canRetry() : inWalk && p.isSettled()));
    m_restart->setEnabled(m_readOnlyReason.isEmpty());
    if (!m_readOnlyReason.isEmpty()) {
        m_refetch->setToolTip(m_readOnlyReason);
        m_restart->setToolTip(m_readOnlyReason);
    }
    m_copy->setEnabled(true);
    updateTimer();
}

QWidget *PageInspector::focusTarget()
{
    if (m_detail && m_stack->currentWidget() == m_detail)
        return m_cursor.raw;
    return this;
}

QJsonObject PageInspector::pageJson() const
{
    return isEmpty() ? QJsonObject() : PageExport::pageJson(*m_model->walker(), m_row, cursorsMasked());
}

void PageInspector::setReadOnly(const QString &reason)
{
    m_readOnlyReason = reason;
    if (!isEmpty())
        setPage(m_model, m_row);
}

void PageInspector::refetchPage()
{
    if (isEmpty() || !m_readOnlyReason.isEmpty())
        return;
    const PageRecord &p = m_model->ledger()->page(m_row);
    if (p.state == PageRecord::State::Failed) {
        const int index = p.index;
        PageWalker *walker = m_model->walker();
        if (!walker->canRetry())
            return;
        walker->retryFailedPage();
        Q_EMIT statusMessage(tr("Retrying page %1").arg(index + 1));
        Q_EMIT pageRetried(walker->rows()->lastPageLedgerRow());
        return;
    }
    m_model->walker()->refetchPage(m_row);
    Q_EMIT statusMessage(tr("Refetching page %1").arg(p.index + 1));
}

void PageInspector::discardAndRestart()
{
    if (!m_model || !m_readOnlyReason.isEmpty())
        return;
    m_model->walker()->restart(tr("discarded by the user"));
    Q_EMIT statusMessage(tr("Discarded every page; walking the list again"));
}

void PageInspector::copyAsJson()
{
    if (isEmpty())
        return;
    const QByteArray json = QJsonDocument(pageJson()).toJson(QJsonDocument::Indented);
    copyToClipboard(QString::fromUtf8(json));
    Q_EMIT statusMessage(
        tr("Page %1 copied as JSON (%2)")
            .arg(QString::number(m_model->ledger()->page(m_row).index + 1), describeBytes(json.size())));
}

void PageInspector::applyColors()
{
    const StatusColors colors(palette());
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, colors.mutedText());
    for (QLabel *label : std::as_const(m_fieldNames))
        label->setPalette(muted);
    m_empty->setPalette(muted);
    if (m_detail) {
        m_cursor.opaque->setPalette(muted);
        m_next.opaque->setPalette(muted);
    }
}

void PageInspector::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refreshCountdown();
}

void PageInspector::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_countdown.stop();
}

void PageInspector::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyColors();
        refresh();
    }
}

} // namespace folio
