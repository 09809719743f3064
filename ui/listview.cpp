#include "listview.h"

#include "argumentsuggestions.h"
#include "copyaction.h"
#include "definitionlint.h"
#include "elidedlabel.h"
#include "fonts.h"
#include "icons.h"
#include "jsontreemodel.h"
#include "pagedlistmodel.h"
#include "pageinspector.h"
#include "pagemargindelegate.h"
#include "pagestrip.h"
#include "rowfilter.h"
#include "rowfiltermodel.h"
#include "serversession.h"
#include "settingskeys.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "toolargsform.h"
#include "wraplabel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QResizeEvent>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextEdit>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace folio {

namespace {

// The item pane's width while it holds only its hint, and the width it takes for the first item.
constexpr int EmptyRowPaneWidth = 170;
constexpr int ItemPaneWidth = 320;

// The row numbers down the table's side. QHeaderView sizes itself by measuring up to 200
// sections' contents, again after every page inserted; a row number is only as wide as its
// digits, so the first and the last section say all (an eighth of the window's work before the
// first page was on screen went to that measuring).
class RowNumberHeader : public QHeaderView
{
public:
    explicit RowNumberHeader(QWidget *parent)
        : QHeaderView(Qt::Vertical, parent)
    {}

    QSize sizeHint() const override
    {
        if (count() == 0)
            return QHeaderView::sizeHint();
        return sectionSizeFromContents(0).expandedTo(sectionSizeFromContents(count() - 1));
    }
};

QToolButton *toolButton(const QString &text, const QString &icon, const QString &tip, QWidget *parent)
{
    auto *b = new QToolButton(parent);
    b->setText(text);
    // Named first: in a narrow view the button shows its icon only (fitToolButtons()).
    QString name = text;
    if (name.endsWith(QChar(0x2026)))
        name.chop(1);
    b->setToolTip(QStringLiteral("%1: %2").arg(name, tip));
    b->setIcon(actionIcon(icon));
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    b->setAutoRaise(true);
    return b;
}
} // namespace

ListView::ListView(ServerSession *session, const ListSource &source, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_listId(source.id())
    , m_source(source)
    , m_strip(new PageStrip(this))
    , m_table(new QTableView(this))
    , m_rowStack(new QStackedWidget(this))
    , m_rowHint(new WrapLabel(m_rowStack))
    , m_inspector(new PageInspector(this))
    , m_vertical(new QSplitter(Qt::Vertical, this))
    , m_horizontal(new QSplitter(Qt::Horizontal, this))
    , m_filter(new QLineEdit(this))
    , m_summary(new ElidedLabel(this))
    , m_progress(new QProgressBar(this))
{
    m_model = session->listModel(m_listId);
    // A list tool is a tools/call: it runs only when the user asks (its arguments may be needed).
    if (m_model && source.kind() == ListSource::Kind::Tool)
        m_model->walker()->setManualStart(true);

    // Toolbar.
    m_loadAll = toolButton(tr("Load all"), QStringLiteral("load-all"),
                           tr("Follow the cursors to the end of the list (Ctrl+L)"), this);
    m_cancel = toolButton(tr("Cancel"), QStringLiteral("cancel"),
                          tr("Stop loading; the pages read stay (Esc)"), this);
    m_restart = toolButton(tr("Restart"), QStringLiteral("restart"),
                           tr("Discard every page and walk again from the first (F5)"), this);
    m_autoRefetch = toolButton(tr("Auto-refetch"), QStringLiteral("auto-refetch"),
                               tr("Refetch each page with its own cursor when its TTL expires"), this);
    m_autoRefetch->setCheckable(true);
    m_restart->setObjectName(QStringLiteral("restartButton"));
    m_autoRefetch->setObjectName(QStringLiteral("autoRefetchButton"));
    m_cancel->setEnabled(false);
    m_filter->setPlaceholderText(tr("Filter loaded rows (Ctrl+F)"));
    // The clear button shows only while there is text: it is made when there first is (its icon
    // is read and decoded from a PNG, a cost the window's start-up need not pay).
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!text.isEmpty() && !m_filter->isClearButtonEnabled())
            m_filter->setClearButtonEnabled(true);
    });
    m_filter->setMaximumWidth(320);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 0);
    m_progress->setVisible(false);
    // What the walk says can be long (a page's error from the server): one line, elided at the end,
    // whole in its tooltip and Copy, never a minimum width for the window.
    m_summary->setObjectName(QStringLiteral("listSummary"));
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(m_loadAll);
    bar->addWidget(m_cancel);
    bar->addWidget(m_restart);
    bar->addWidget(m_autoRefetch);
    const bool invokes =
        source.kind() == ListSource::Kind::Tool ||
        (source.kind() == ListSource::Kind::Protocol &&
         (source.protocolKind() == ListKind::Tools || source.protocolKind() == ListKind::Prompts));
    if (invokes) {
        if (source.kind() == ListSource::Kind::Tool)
            m_invoke = toolButton(tr("Call once…"), QStringLiteral("call"),
                                  tr("Call this tool once with arguments of your choosing, "
                                     "outside the walk"),
                                  this);
        else if (source.protocolKind() == ListKind::Tools)
            m_invoke = toolButton(tr("Call…"), QStringLiteral("call"),
                                  tr("Call the selected tool (Ctrl+Return, or double-click it)"), this);
        else
            m_invoke = toolButton(tr("Get…"), QStringLiteral("call"),
                                  tr("Get the selected prompt (Ctrl+Return, or double-click it)"), this);
        m_invoke->setObjectName(QStringLiteral("invokeButton"));
        connect(m_invoke, &QToolButton::clicked, this, &ListView::requestInvoke);
        bar->addWidget(m_invoke);
    }
    bar->addSpacing(8);
    bar->addWidget(m_filter, 1);
    bar->addSpacing(8);
    bar->addWidget(m_progress);
    bar->addWidget(m_summary, 2);

    // The table and the selected row.
    m_table->setVerticalHeader(new RowNumberHeader(m_table));
    // The model itself until the filter is first used (filterRows() puts a proxy in then): a
    // proxy wired to its source was a tenth of a list's set-up.
    m_table->setModel(m_model);
    m_table->setItemDelegate(new PageMarginDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(false);
    m_table->setWordWrap(false);
    m_table->setShowGrid(false);
    applyColors();
    keepRowsFitted(m_table, 8);
    m_columnsFontHeight = m_table->fontMetrics().height();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // The description is the column that stretches: shown last (a prompt's short argument names
    // before it), in the view only; the model, the exports and the CLI keep their order.
    if (m_model) {
        for (int c = 0; c < m_model->columnCount(); ++c) {
            if (m_model->columnKey(c) == QStringLiteral("description"))
                m_table->horizontalHeader()->moveSection(m_table->horizontalHeader()->visualIndex(c),
                                                         m_model->columnCount() - 1);
        }
    }
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Tab and Shift+Tab leave the table for the next and previous widgets (arrows move in it).
    m_table->setTabKeyNavigation(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &ListView::showTableMenu);
    if (invokes && source.kind() == ListSource::Kind::Protocol) {
        connect(m_table, &QAbstractItemView::doubleClicked, this, &ListView::requestInvoke);
        for (const QKeySequence &keys :
             {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
            auto *shortcut = new QShortcut(keys, m_table);
            shortcut->setContext(Qt::WidgetShortcut);
            connect(shortcut, &QShortcut::activated, this, &ListView::requestInvoke);
        }
    }
    // The selected row's item: a hint until a row is first selected, then its JSON as a tree
    // (made then: a tree view and its model cost a tenth of a list's set-up, for an empty pane).
    m_rowHint->setText(tr("Select a row to see its item"));
    m_rowHint->setObjectName(QStringLiteral("emptyState"));
    m_rowHint->setAlignment(Qt::AlignCenter);
    m_rowHint->setMargin(8);
    m_rowStack->addWidget(m_rowHint);
    m_horizontal->addWidget(m_table);
    m_horizontal->addWidget(m_rowStack);
    m_horizontal->setStretchFactor(0, 3);
    m_horizontal->setStretchFactor(1, 1);
    m_vertical->addWidget(m_horizontal);
    m_vertical->addWidget(m_inspector);
    // The table takes most of any change of height; the inspector keeps its actions on its first
    // row, so a short one still serves, and it collapses to nothing when dragged down.
    m_vertical->setStretchFactor(0, 4);
    m_vertical->setStretchFactor(1, 1);
    m_vertical->setCollapsible(0, false);
    connect(m_vertical, &QSplitter::splitterMoved, this, [this] { m_inspectorPlaced = true; });
    connect(m_horizontal, &QSplitter::splitterMoved, this, [this] { m_itemPanePlaced = true; });
    m_vertical->setSizes({600, 160});
    // The item pane holds a hint until a row is chosen: narrow until then (showRowItem widens it).
    m_horizontal->setSizes({1000, EmptyRowPaneWidth});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    if (source.kind() == ListSource::Kind::Tool) {
        m_argsForm = new ToolArgsForm(this);
        if (m_session)
            m_argsForm->setSuggestions(ArgumentSuggestions(
                m_session->config().name, source.toolDefinition().value(QStringLiteral("name")).toString()));
        m_argsForm->setTool(source.toolDefinition(), source.cursorArgument(), source.limitArgument());
        m_argsForm->setContentsMargins(8, 0, 8, 0);
        connect(m_argsForm, &ToolArgsForm::applied, this, &ListView::applyToolArguments);
        layout->addWidget(m_argsForm);
    }
    layout->addWidget(m_strip);
    layout->addWidget(m_vertical, 1);

    m_strip->setListModel(m_model);
    m_pageSelection = new QItemSelectionModel(m_model ? m_model->ledger() : nullptr, this);
    m_strip->setSelectionModel(m_pageSelection);

    connect(m_loadAll, &QToolButton::clicked, this, &ListView::loadAll);
    connect(m_cancel, &QToolButton::clicked, this, &ListView::cancel);
    connect(m_restart, &QToolButton::clicked, this, &ListView::restart);
    connect(m_autoRefetch, &QToolButton::toggled, this, [this](bool on) {
        if (m_model)
            m_model->walker()->setAutoRefetch(on);
    });
    connect(m_filter, &QLineEdit::textChanged, this, &ListView::filterRows);
    connect(m_pageSelection, &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showPage(current.isValid() ? current.row() : -1, false); });
    connect(m_inspector, &PageInspector::statusMessage, this, &ListView::statusMessage);
    connect(m_inspector, &PageInspector::pageRetried, this, &ListView::selectPage);
    watchSelection();
    if (m_model) {
        connect(m_model->walker(), &PageWalker::loadingChanged, this, &ListView::updateSummary);
        connect(m_model->walker(), &PageWalker::progress, this, &ListView::updateSummary);
        connect(m_model->walker(), &PageWalker::walkFinished, this, &ListView::updateSummary);
        connect(m_model->walker(), &PageWalker::findingsChanged, this, &ListView::updateSummary);
        connect(m_model->walker(), &PageWalker::findingsChanged, this, &ListView::selectFirstFinding);
        connect(m_model->walker(), &PageWalker::pageFailed, this, [this](int row, const McpError &e) {
            if (m_model->walker()->needsArguments()) {
                Q_EMIT statusMessage(tr("%1 %2").arg(m_listId, m_model->walker()->stopReason()));
                return;
            }
            Q_EMIT statusMessage(
                tr("%1: page %2 failed: %3")
                    .arg(m_listId, QString::number(m_model->ledger()->page(row).index + 1), e.describe()));
        });
        connect(m_model->walker(), &PageWalker::walkRestarted, this, [this](const QString &reason) {
            Q_EMIT statusMessage(
                tr("%1: every page discarded and the walk restarted — %2").arg(m_listId, reason));
            updateSummary();
        });
        connect(m_model->walker(), &PageWalker::pageAccepted, this, [this] {
            if (m_columnsSized || m_model->rowCount() == 0)
                return;
            m_columnsSized = true; // to the first page, once: the user's widths win after that
            sizeColumns();
        });
    }
    // A replay shows what was recorded: nothing here may ask the server again.
    m_readOnlyReason = session->readOnlyReason();
    if (!m_readOnlyReason.isEmpty()) {
        for (QToolButton *b : {m_restart, m_autoRefetch, m_invoke}) {
            if (b) {
                b->setEnabled(false);
                b->setToolTip(m_readOnlyReason);
            }
        }
        m_inspector->setReadOnly(m_readOnlyReason);
    }
    QSettings settings;
    settings.beginGroup(SettingsKey::ListViewGroup);
    restoreSettings(settings);
    updateSummary();
}

ListView::~ListView() = default;

// Each column but the last shown (which stretches) as wide as its header and its widest text among the
// first rows, within bounds. Measured here as the width of each cell's text: asking the
// view (resizeColumnToContents) lays every cell out as the style would to draw it, which was an
// eighth of the work before the first page was on screen.
void ListView::sizeColumns()
{
    // The sample: a tall window's screenful (each sampled row's item is parsed for its texts).
    constexpr int sampleRows = 40, minWidth = 60, maxWidth = 280, slack = 12;
    QHeaderView *h = m_table->horizontalHeader();
    const QAbstractItemModel *model = m_table->model();
    const QFontMetrics fm(m_table->font());
    const int textMargin =
        2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1);
    const int rows = qMin(model->rowCount(), sampleRows);
    for (int c = 0; c < h->count(); ++c) {
        if (h->visualIndex(c) == h->count() - 1)
            continue; // it stretches
        int width = h->sectionSizeHint(c);
        const int cellMargin = textMargin + (c == 0 ? PageMarginDelegate::marginWidth + 3 : 0);
        for (int r = 0; r < rows; ++r) {
            const QString text = model->index(r, c).data().toString();
            width = qMax(width, fm.horizontalAdvance(text) + cellMargin);
        }
        h->resizeSection(c, qBound(minWidth, width + slack, maxWidth));
    }
}

void ListView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // Pages read before the view was made (the walk on connect): sized to them when first shown.
    if (!m_columnsSized && m_model && m_model->rowCount() > 0) {
        m_columnsSized = true;
        sizeColumns();
    }
    // Findings made before the view was (a walk on connect, a replay): opened on the first too.
    selectFirstFinding();
    if (m_model && m_model->ledger()->rowCount() == 0 && m_model->canFetchMore({}))
        m_model->walker()->start();
}

void ListView::applyColors()
{
    // A whole page is often selected at once: a soft highlight keeps it readable.
    QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    const QColor hl = p.color(QPalette::Highlight);
    const QColor soft((hl.red() * 35 + base.red() * 65) / 100, (hl.green() * 35 + base.green() * 65) / 100,
                      (hl.blue() * 35 + base.blue() * 65) / 100);
    p.setColor(QPalette::Highlight, soft);
    p.setColor(QPalette::HighlightedText, p.color(QPalette::Text));
    m_table->setPalette(p);
    // The row pane's hint is muted, like the other empty states.
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, StatusColors(palette()).mutedText());
    m_rowHint->setPalette(muted);
}

void ListView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
    if (event->type() == QEvent::FontChange) {
        fitToolButtons();
        scaleColumnsToFont();
    }
}

// View > Zoom: the columns' widths (measured, or the user's) grow and shrink with the text, so a
// zoomed name is not cut to half of what it was.
void ListView::scaleColumnsToFont()
{
    const int height = m_table->fontMetrics().height();
    if (m_columnsFontHeight > 0 && height != m_columnsFontHeight) {
        QHeaderView *h = m_table->horizontalHeader();
        for (int c = 0; c < h->count(); ++c) {
            if (h->visualIndex(c) != h->count() - 1) // the last one stretches
                h->resizeSection(c, qRound(h->sectionSize(c) * qreal(height) / m_columnsFontHeight));
        }
    }
    m_columnsFontHeight = height;
}

void ListView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitToolButtons();
}

void ListView::fitToolButtons()
{
    QList<QToolButton *> buttons{m_loadAll, m_cancel, m_restart, m_autoRefetch};
    if (m_invoke)
        buttons.append(m_invoke);
    // Measured with their words (a button's hint is that of its current style): the filter and
    // the summary keep at least 24 characters each.
    const QFontMetrics metrics = fontMetrics();
    // The icons grow with the text (View > Zoom): the style's size is read again.
    const int iconSide = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    for (QToolButton *b : std::as_const(buttons))
        b->setIconSize(QSize(iconSide, iconSide));
    int needed = 48 * metrics.averageCharWidth() + 40;
    for (const QToolButton *b : std::as_const(buttons)) {
        const int icon = b->icon().isNull() ? 0 : b->iconSize().width() + 4;
        needed += metrics.horizontalAdvance(b->text()) + icon + 20;
    }
    const Qt::ToolButtonStyle style =
        width() >= needed ? Qt::ToolButtonTextBesideIcon : Qt::ToolButtonIconOnly;
    for (QToolButton *b : std::as_const(buttons)) {
        if (b->icon().isNull())
            continue; // a button with no icon keeps its words
        b->setToolButtonStyle(style);
    }
}

void ListView::watchSelection()
{
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { handleRowSelected(current); });
}

QModelIndex ListView::viewIndex(const QModelIndex &source) const
{
    return m_proxy ? m_proxy->mapFromSource(source) : source;
}

QModelIndex ListView::sourceIndex(const QModelIndex &view) const
{
    return m_proxy ? m_proxy->mapToSource(view) : view;
}

void ListView::filterRows(const QString &text)
{
    if (!m_proxy) {
        if (text.isEmpty() || !m_model)
            return;
        // The filter searches the rows' stored JSON off the GUI thread (a QSortFilterProxyModel
        // asked every cell's display text on it, half a second a keystroke at 200,000 rows); the
        // proxy shows what it found. It goes in between the table and the model; what the user
        // sees stays: the column widths, the current row and the selection.
        m_rowFilter = new RowFilter(m_model->rows(), this);
        m_proxy = new RowFilterModel(m_rowFilter, this);
        m_proxy->setSourceModel(m_model);
        connect(m_rowFilter, &RowFilter::pendingChanged, this, &ListView::updateSummary);
        connect(m_rowFilter, &RowFilter::matchesReset, this, &ListView::updateSummary);
        connect(m_rowFilter, &RowFilter::rowsMatched, this, &ListView::updateSummary);
        QHeaderView *header = m_table->horizontalHeader();
        const QByteArray columns = header->saveState();
        const QModelIndex current = m_table->currentIndex();
        const QItemSelection selection = m_table->selectionModel()->selection();
        QItemSelectionModel *old = m_table->selectionModel();
        m_table->setModel(m_proxy);
        old->deleteLater(); // the view's own, which setModel() leaves
        header->restoreState(columns);
        m_table->selectionModel()->select(m_proxy->mapSelectionFromSource(selection),
                                          QItemSelectionModel::Select);
        m_table->selectionModel()->setCurrentIndex(m_proxy->mapFromSource(current),
                                                   QItemSelectionModel::NoUpdate);
        watchSelection(); // after: the same row stays current, nothing to report
    }
    m_rowFilter->setNeedle(text); // searched once the typing pauses
    updateSummary();
}

void ListView::showRowItem(const QJsonObject &item)
{
    m_rowItem = item;
    if (!m_rowTree) {
        // The item as a tree (columns sized to their contents, the value taking the rest) and as
        // its raw JSON, with Copy beside the tabs.
        // Above the item: what the definitions lint says of it (a protocol list's item), so that a
        // tool's hidden characters or instructions to the model sit next to its schema.
        m_rowPage = new QWidget(m_rowStack);
        m_rowLint = new QLabel(m_rowPage);
        m_rowLint->setObjectName(QStringLiteral("rowItemLint"));
        m_rowLint->setWordWrap(true);
        m_rowLint->setMargin(4);
        m_rowTabs = new QTabWidget(m_rowPage);
        m_rowTabs->setObjectName(QStringLiteral("rowItemTabs"));
        m_rowTabs->setDocumentMode(true);
        m_rowJson = new JsonTreeModel(this);
        m_rowTree = new QTreeView(m_rowTabs);
        m_rowTree->setObjectName(QStringLiteral("rowItemTree"));
        m_rowTree->setModel(m_rowJson);
        m_rowTree->setUniformRowHeights(true);
        m_rowTree->setAlternatingRowColors(true);
        m_rowTree->setIndentation(14);
        QHeaderView *h = m_rowTree->header();
        h->setStretchLastSection(false);
        h->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::ResizeToContents);
        h->setSectionResizeMode(JsonTreeModel::ValueColumn, QHeaderView::Stretch);
        h->setSectionResizeMode(JsonTreeModel::TypeColumn, QHeaderView::ResizeToContents);
        m_rowRaw = new QPlainTextEdit(m_rowTabs);
        m_rowRaw->setObjectName(QStringLiteral("rowItemJson"));
        m_rowRaw->setReadOnly(true);
        m_rowRaw->setFont(fixedFont());
        m_rowRaw->setLineWrapMode(QPlainTextEdit::NoWrap);
        m_rowLintText = new QTextEdit(m_rowTabs);
        m_rowLintText->setObjectName(QStringLiteral("rowItemLintText"));
        m_rowLintText->setReadOnly(true);
        m_rowTabs->addTab(m_rowTree, tr("Tree"));
        m_rowTabs->addTab(m_rowRaw, tr("JSON"));
        m_rowTabs->addTab(m_rowLintText, tr("Lint"));
        // The ids above the item lead to their messages.
        connect(m_rowLint, &QLabel::linkActivated, this,
                [this] { m_rowTabs->setCurrentWidget(m_rowLintText); });
        auto *copy = new QToolButton(m_rowTabs);
        copy->setObjectName(QStringLiteral("copyItem"));
        copy->setText(tr("Copy"));
        copy->setToolTip(tr("Copy the item as JSON"));
        copy->setAutoRaise(true);
        connect(copy, &QToolButton::clicked, this, &ListView::copyItemAsJson);
        m_rowTabs->setCornerWidget(copy, Qt::TopRightCorner);
        connect(m_rowTabs, &QTabWidget::currentChanged, this, [this] { showRowItem(m_rowItem); });
        auto *page = new QVBoxLayout(m_rowPage);
        page->setContentsMargins(0, 0, 0, 0);
        page->setSpacing(0);
        page->addWidget(m_rowLint);
        page->addWidget(m_rowTabs, 1);
        m_rowStack->addWidget(m_rowPage);
        // The first item: the pane takes the room an item needs, if it had only the hint's
        // (once the splitter has its real width).
        QMetaObject::invokeMethod(
            this,
            [this] {
                const QList<int> sizes = m_horizontal->sizes();
                if (sizes.size() != 2 || m_itemPanePlaced)
                    return;
                const int total = sizes.at(0) + sizes.at(1);
                const int pane = qMin(ItemPaneWidth, total / 3);
                if (pane > sizes.at(1))
                    m_horizontal->setSizes({total - pane, pane});
            },
            Qt::QueuedConnection);
    }
    // Only the tab on show is filled: the raw text of a large item is not laid out unasked.
    if (m_rowTabs->currentWidget() == m_rowRaw) {
        m_rowRaw->setPlainText(
            QString::fromUtf8(jsonTerminalSafe(QJsonDocument(item).toJson(QJsonDocument::Indented))));
    } else {
        m_rowJson->setJson(item);
        m_rowTree->expandToDepth(0);
    }
    showRowLint(item);
    m_rowStack->setCurrentWidget(m_rowPage);
}

void ListView::showRowLint(const QJsonObject &item)
{
    QStringList ids;
    QStringList lines;
    if (m_source.kind() == ListSource::Kind::Protocol) {
        const StatusColors colors(palette());
        // One item: every rule but those about the list as a whole (collisions, context cost).
        for (const Finding &f : DefinitionLint::lint(m_source.protocolKind(), {item})) {
            if (f.id == FindingId::ToolNameCollision || f.id == FindingId::ContextCost)
                continue;
            const QString id =
                QStringLiteral("<b style=\"color:%1\">%2</b>").arg(colors.severity(f.severity).name(), f.id);
            if (!ids.contains(id))
                ids << id;
            lines << QStringLiteral("<p>%1 %2</p>").arg(id, f.message.toHtmlEscaped());
        }
    }
    const int lintTab = m_rowTabs->indexOf(m_rowLintText);
    m_rowTabs->setTabVisible(lintTab, !lines.isEmpty());
    m_rowTabs->setTabText(lintTab, tr("Lint (%1)").arg(lines.size()));
    m_rowLintText->setHtml(lines.join(QString()));
    // The ids alone above the item (a narrow pane stays the item's), a link to their messages.
    m_rowLint->setText(lines.isEmpty()
                           ? QString()
                           : tr("Lint: %1 · <a href=\"#lint\">why</a>").arg(ids.join(QStringLiteral(", "))));
    m_rowLint->setToolTip(tr("What the definitions lint finds in this item (docs/findings.md); the Lint "
                             "tab says why"));
    m_rowLint->setVisible(!lines.isEmpty());
}

void ListView::copyItemAsJson()
{
    if (m_rowItem.isEmpty())
        return;
    copyToClipboard(QString::fromUtf8(QJsonDocument(m_rowItem).toJson(QJsonDocument::Indented)));
    Q_EMIT statusMessage(tr("Item copied as JSON"));
}

// The table's context menu: copy what is under the pointer, the rows selected as JSON, and the
// page the row came from.
void ListView::showTableMenu(const QPoint &pos)
{
    if (!m_model)
        return;
    const QModelIndex at = m_table->indexAt(pos);
    QMenu menu(this);
    // What the embedding view added to the table (Read, Read from Template…) comes first.
    if (!m_table->actions().isEmpty()) {
        menu.addActions(m_table->actions());
        menu.addSeparator();
    }
    if (m_invoke && m_source.kind() == ListSource::Kind::Protocol) {
        QAction *invoke =
            menu.addAction(m_source.protocolKind() == ListKind::Tools ? tr("Call Tool…") : tr("Get Prompt…"));
        invoke->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
        invoke->setEnabled(at.isValid());
        connect(invoke, &QAction::triggered, this, [this, at] {
            m_table->setCurrentIndex(at);
            requestInvoke();
        });
        menu.addSeparator();
    }
    QAction *copyCell = menu.addAction(tr("Copy Cell"));
    copyCell->setEnabled(at.isValid());
    connect(copyCell, &QAction::triggered, this, [at] { copyToClipboard(at.data().toString()); });
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    QAction *copyRows = menu.addAction(selected.size() > 1 ? tr("Copy %1 Rows as JSON").arg(selected.size())
                                                           : tr("Copy Row as JSON"));
    copyRows->setEnabled(at.isValid() || !selected.isEmpty());
    connect(copyRows, &QAction::triggered, this, [this, at, selected] {
        QModelIndexList rows = selected;
        if (rows.isEmpty() ||
            (at.isValid() && !m_table->selectionModel()->isRowSelected(at.row(), at.parent())))
            rows = {at};
        std::sort(rows.begin(), rows.end(),
                  [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
        QJsonArray items;
        for (const QModelIndex &r : std::as_const(rows))
            items.append(m_model->item(sourceIndex(r).row()));
        const QJsonDocument doc =
            items.size() == 1 ? QJsonDocument(items.first().toObject()) : QJsonDocument(items);
        copyToClipboard(QString::fromUtf8(doc.toJson(QJsonDocument::Indented)));
        Q_EMIT statusMessage(tr("%n row(s) copied as JSON", nullptr, int(items.size())));
    });
    menu.addSeparator();
    const int ledgerRow = at.isValid() ? sourceIndex(at).data(PagedListModel::PageRowRole).toInt() : -1;
    const int pageNumber = ledgerRow >= 0 ? m_model->ledger()->page(ledgerRow).index + 1 : 0;
    QAction *inspect =
        menu.addAction(ledgerRow >= 0 ? tr("Inspect Page %1").arg(pageNumber) : tr("Inspect Page"));
    inspect->setEnabled(ledgerRow >= 0);
    connect(inspect, &QAction::triggered, this, [this, ledgerRow] {
        selectPage(ledgerRow);
        m_inspector->setFocus();
    });
    QAction *refetch =
        menu.addAction(ledgerRow >= 0 ? tr("Refetch Page %1").arg(pageNumber) : tr("Refetch Page"));
    if (isReadOnly())
        refetch->setToolTip(m_readOnlyReason);
    refetch->setEnabled(!isReadOnly() && ledgerRow >= 0 && m_model->ledger()->page(ledgerRow).isSettled() &&
                        m_model->ledger()->page(ledgerRow).state != PageRecord::State::Failed);
    connect(refetch, &QAction::triggered, this,
            [this, ledgerRow] { m_model->walker()->refetchPage(ledgerRow); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void ListView::loadAll()
{
    if (m_model)
        m_model->walker()->fetchAll();
    updateSummary();
}

void ListView::cancel()
{
    if (m_model)
        m_model->walker()->cancel();
    updateSummary();
}

void ListView::restart()
{
    if (m_model && !isReadOnly())
        m_model->walker()->restart(tr("restarted by the user"));
}

void ListView::focusFilter()
{
    m_filter->setFocus();
    m_filter->selectAll();
}

void ListView::setMaskCursors(bool mask)
{
    if (m_model)
        m_model->ledger()->setMaskCursors(mask);
    m_inspector->setCursorsMasked(mask);
    m_strip->viewport()->update();
}

void ListView::requestInvoke()
{
    if (!m_invoke || isReadOnly())
        return;
    if (m_source.kind() == ListSource::Kind::Tool) {
        Q_EMIT callToolRequested(m_source.toolDefinition());
        return;
    }
    const QModelIndex current = m_table->currentIndex();
    if (!m_model || !current.isValid()) {
        Q_EMIT statusMessage(m_source.protocolKind() == ListKind::Tools ? tr("Select a tool to call")
                                                                        : tr("Select a prompt to get"));
        return;
    }
    const QJsonObject item = m_model->item(sourceIndex(current).row());
    if (m_source.protocolKind() == ListKind::Tools)
        Q_EMIT callToolRequested(item);
    else
        Q_EMIT getPromptRequested(item);
}

void ListView::applyToolArguments()
{
    if (!m_model || !m_argsForm)
        return;
    ListSource s = m_model->source();
    s.setArguments(m_argsForm->arguments());
    s.setLimit(m_argsForm->limit());
    m_model->setSource(s);
    m_model->walker()->start();
}

bool ListView::selectWalkPage(int pageIndex)
{
    if (!m_model)
        return false;
    PageWalker *walker = m_model->walker();
    if (const QList<int> rows = walker->walkPageRows(); pageIndex < rows.size()) {
        selectPage(rows.at(pageIndex));
        return true;
    }
    auto *ctx = new QObject(this);
    connect(walker, &PageWalker::pageAccepted, ctx, [this, walker, ctx, pageIndex] {
        const QList<int> rows = walker->walkPageRows();
        if (pageIndex < rows.size() && m_model->ledger()->page(rows.at(pageIndex)).isSettled()) {
            selectPage(rows.at(pageIndex));
            ctx->deleteLater();
        }
    });
    connect(walker, &PageWalker::walkFinished, ctx, &QObject::deleteLater);
    loadAll();
    return false;
}

void ListView::selectItem(int row)
{
    if (!m_model || row < 0 || row >= m_model->rowCount())
        return;
    QModelIndex index = viewIndex(m_model->index(row, 0));
    if (!index.isValid() && !m_filter->text().isEmpty()) {
        m_filter->clear(); // the filter hid it
        index = viewIndex(m_model->index(row, 0));
    }
    if (!index.isValid())
        return;
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_table->setFocus(Qt::OtherFocusReason);
}

void ListView::fitInspector()
{
    // The evidence gets the room: the inspector grows to show a page whole (up to a little over
    // half the view), unless the user has placed the divider.
    if (m_inspectorPlaced || m_inspector->isEmpty())
        return;
    const QList<int> sizes = m_vertical->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    const int wanted = qMin(m_inspector->detailHeight(), total * 55 / 100);
    if (sizes.size() == 2 && total > 0 && wanted > sizes.at(1))
        m_vertical->setSizes({total - wanted, wanted});
}

void ListView::selectFirstFinding()
{
    // A list with findings opens on the first of them, unless a page was chosen already.
    if (!m_model || m_pageSelection->currentIndex().isValid())
        return;
    for (int row : m_model->walker()->walkPageRows()) {
        if (!m_model->ledger()->page(row).findings.isEmpty()) {
            selectPage(row);
            return;
        }
    }
}

void ListView::selectPage(int ledgerRow)
{
    if (!m_model)
        return;
    // Asked for by name (findings, timeline, go to page): the page's rows are selected again even
    // when it is current already and the table has moved within it.
    if (ledgerRow == m_strip->currentPage())
        showPage(ledgerRow, true);
    else
        m_strip->setCurrentPage(ledgerRow); // the shared selection: showPage() follows
}

// The current page changed, wherever (strip, timeline, table): the inspector shows it, and the
// table selects its rows unless its current row is on that page already (the table moved it).
// Each side sets only what differs, so the signals settle without a guard.
void ListView::showPage(int ledgerRow, bool reselectRows)
{
    if (!m_model)
        return;
    m_inspector->setPage(m_model, ledgerRow);
    // Measured once the inspector has laid the page out (a page shown first builds it).
    QMetaObject::invokeMethod(this, &ListView::fitInspector, Qt::QueuedConnection);
    const QModelIndex current = sourceIndex(m_table->currentIndex());
    if (ledgerRow < 0 || (!reselectRows && current.isValid() &&
                          current.data(PagedListModel::PageRowRole).toInt() == ledgerRow))
        return;
    int first = 0, count = 0;
    if (m_model->rows()->rowsOfPage(ledgerRow, &first, &count) && count > 0) {
        const QModelIndex top = viewIndex(m_model->index(first, 0));
        const QModelIndex bottom =
            viewIndex(m_model->index(first + count - 1, qMax(0, m_model->columnCount() - 1)));
        if (top.isValid()) {
            m_table->selectionModel()->setCurrentIndex(top, QItemSelectionModel::NoUpdate);
            m_table->selectionModel()->select(QItemSelection(top, bottom.isValid() ? bottom : top),
                                              QItemSelectionModel::ClearAndSelect |
                                                  QItemSelectionModel::Rows);
            showRowItem(m_model->item(first));
            m_table->scrollTo(top, QAbstractItemView::PositionAtTop);
        }
    }
}

void ListView::handleRowSelected(const QModelIndex &current)
{
    if (!m_model || !current.isValid())
        return;
    const QModelIndex source = sourceIndex(current);
    showRowItem(m_model->item(source.row()));
    // The row's page becomes current; when it already is (showPage() moved the table here),
    // nothing is set and nothing more is told.
    m_strip->setCurrentPage(source.data(PagedListModel::PageRowRole).toInt());
}

QString ListView::summary() const
{
    if (!m_model)
        return tr("This list is not available");
    if (m_model->walker()->needsArguments()) {
        // Folio's question lacked what the tool wants: nothing to count yet, and no fault of the
        // server's. Said as what to do.
        QString reason = m_model->walker()->stopReason();
        if (!reason.isEmpty())
            reason[0] = reason.at(0).toUpper();
        return tr("%1 — fill them in above, then Walk with these arguments").arg(reason);
    }
    const int findings = int(m_model->walker()->findings().size());
    // Filtered, the rows shown out of the rows loaded.
    QString text = m_proxy && m_proxy->isFiltering()
                       ? tr("%1 of %n row(s)", nullptr, m_model->rowCount()).arg(m_proxy->rowCount())
                       : tr("%n row(s)", nullptr, m_model->rowCount());
    if (m_rowFilter && m_rowFilter->isPending())
        text += QStringLiteral(" (") + tr("filtering…") + QLatin1Char(')');
    text += QStringLiteral(" · ") + tr("%n page(s)", nullptr, m_model->walker()->pagesInWalk());
    if (findings > 0)
        text += QStringLiteral(" · ") + tr("%n finding(s)", nullptr, findings);
    if (m_model->walker()->isLoading())
        text += QStringLiteral(" · ") + tr("loading…");
    else if (m_model->walker()->isComplete())
        text += QStringLiteral(" · ") + tr("complete");
    else if (m_model->walker()->isStopped())
        text += QStringLiteral(" · ") + tr("stopped: %1").arg(m_model->walker()->stopReason());
    else if (m_model->walker()->pagesInWalk() > 0)
        text += QStringLiteral(" · ") + tr("more available");
    return text;
}

void ListView::updateSummary()
{
    m_summary->setText(summary());
    const bool loading = m_model && m_model->walker()->isLoading();
    const bool fetchingAll = m_model && m_model->walker()->isFetchingAll();
    m_progress->setVisible(loading || fetchingAll);
    m_cancel->setEnabled(loading || fetchingAll);
    m_loadAll->setEnabled(m_model && !m_model->walker()->isComplete() && !m_model->walker()->isStopped() &&
                          !fetchingAll);
    Q_EMIT summaryChanged();
}

void ListView::saveSettings(QSettings &settings) const
{
    settings.setValue(SettingsKey::ListViewVertical, m_vertical->saveState());
    settings.setValue(SettingsKey::ListViewHorizontal, m_horizontal->saveState());
    settings.setValue(SettingsKey::listViewColumns(m_listId), m_table->horizontalHeader()->saveState());
}

void ListView::restoreSettings(QSettings &settings)
{
    m_vertical->restoreState(settings.value(SettingsKey::ListViewVertical).toByteArray());
    m_horizontal->restoreState(settings.value(SettingsKey::ListViewHorizontal).toByteArray());
    const QByteArray columns = settings.value(SettingsKey::listViewColumns(m_listId)).toByteArray();
    // The user's widths win over the ones measured from the first page.
    if (!columns.isEmpty() && m_table->horizontalHeader()->restoreState(columns))
        m_columnsSized = true;
}

} // namespace folio
