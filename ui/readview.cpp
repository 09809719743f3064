#include "readview.h"

#include "argumentcompleter.h"
#include "copyaction.h"
#include "filechooser.h"
#include "fonts.h"
#include "pagedlistmodel.h"
#include "resourcereads.h"
#include "serversession.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "ttlclock.h"
#include "uritemplate.h"
#include "wraplabel.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCompleter>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPainterPath>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStringListModel>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

namespace folio {

namespace {

constexpr int CountdownTickMs = 100;
constexpr int StripeTickMs = 40;

// The reads list: each URI with its TTL bar beneath, as a chip would show it.
class ReadDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    ResourceReads *reads = nullptr;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        // As wide as the list, whatever the URI: a long one is elided in the middle, never scrolled.
        const QSize s = QStyledItemDelegate::sizeHint(option, index);
        return QSize(40, s.height() + 10);
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem top = option;
        top.rect.setBottom(option.rect.bottom() - 10);
        if (!reads || index.row() >= reads->count()) {
            QStyledItemDelegate::paint(painter, top, index);
            return;
        }
        const ReadRecord &r = reads->record(index.row());
        // A read with findings carries its worst severity's badge, as a page chip does.
        bool anyFinding = false;
        const Finding::Severity worst = r.worstSeverity(&anyFinding);
        const int badge = top.rect.height() - 6;
        if (anyFinding)
            top.rect.setRight(top.rect.right() - badge - 4);
        QStyledItemDelegate::paint(painter, top, index);
        if (anyFinding) {
            painter->save();
            painter->setRenderHint(QPainter::Antialiasing);
            StatusColors(option.palette)
                .drawSeverityBadge(painter, QRectF(top.rect.right() + 2, top.rect.top() + 3, badge, badge),
                                   worst);
            painter->restore();
        }
        const ReadTtlBar::Look look = ReadTtlBar::lookOf(r, reads->ttlClock()->nowMs());
        const QRectF bar(option.rect.left() + 6, option.rect.bottom() - 8, option.rect.width() - 12, 5);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        ReadTtlBar::paintBar(painter, bar, look, StatusColors(option.palette), StatusColors::animationMs());
        painter->restore();
    }
};

QString stateWord(const ReadRecord &r)
{
    using State = PageRecord::State;
    switch (r.state) {
    case State::Loading:
        return QObject::tr("reading…");
    case State::Refetching:
        return QObject::tr("re-reading…");
    case State::Fresh:
        return QObject::tr("fresh");
    case State::Stale:
        // The server said it changed (a subscription's update): that, in either era.
        if (!r.staleReason.isEmpty())
            return QObject::tr("stale: %1").arg(r.staleReason);
        if (r.legacyEra)
            return QObject::tr("no hints (legacy era)");
        if (!r.notCachedReason().isEmpty())
            return QObject::tr("stale: not cached");
        return QObject::tr("stale (TTL %1)").arg(formatDuration(r.effectiveTtlMs));
    case State::Expired:
        return r.error.isError() ? QObject::tr("expired; the re-read failed") : QObject::tr("expired");
    case State::Failed:
        return QObject::tr("failed");
    case State::Discarded:
        break;
    }
    return {};
}

} // namespace

// ---- ReadTtlBar ----

ReadTtlBar::ReadTtlBar(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ReadTtlBar::setRead(ResourceReads *reads, int row)
{
    m_reads = reads;
    m_row = row;
    update();
}

ReadTtlBar::Look ReadTtlBar::lookOf(const ReadRecord &r, qint64 now)
{
    using State = PageRecord::State;
    Look look;
    look.scope = r.scope;
    switch (r.state) {
    case State::Loading:
        look.bar = Bar::Loading;
        look.text = tr("reading…");
        break;
    case State::Fresh:
        look.bar = Bar::Fresh;
        look.remaining = r.effectiveTtlMs > 0 && r.expiresAtMonoMs() >= 0
                             ? qBound(0.0, qreal(r.expiresAtMonoMs() - now) / qreal(r.effectiveTtlMs), 1.0)
                             : 0.0;
        look.text = tr("fresh · expires in %1").arg(formatDuration(r.expiresAtMonoMs() - now));
        break;
    case State::Stale:
        look.bar = r.legacyEra && r.staleReason.isEmpty() ? Bar::Legacy : Bar::Stale;
        look.text = stateWord(r);
        break;
    case State::Expired:
        look.bar = Bar::Expired;
        look.text = stateWord(r);
        break;
    case State::Refetching:
        look.bar = Bar::Refetching;
        look.text = tr("re-reading…");
        break;
    case State::Failed:
        look.bar = Bar::Failed;
        look.text = r.error.kind == McpError::Kind::Rpc ? tr("failed · %1").arg(r.error.code) : tr("failed");
        break;
    case State::Discarded:
        break;
    }
    return look;
}

ReadTtlBar::Look ReadTtlBar::look() const
{
    if (!m_reads || m_row < 0 || m_row >= m_reads->count())
        return {};
    return lookOf(m_reads->record(m_row), m_reads->ttlClock()->nowMs());
}

void ReadTtlBar::paintBar(QPainter *painter, const QRectF &bar, const Look &look, const StatusColors &colors,
                          qint64 animation)
{
    colors.drawTtlBar(painter, bar, look.bar, look.remaining, (animation % 800) / 800.0,
                      /*outlineFailed=*/true);
}

QSize ReadTtlBar::sizeHint() const
{
    return QSize(360, qMax(22, fontMetrics().height() + 8));
}

QSize ReadTtlBar::minimumSizeHint() const
{
    return QSize(160, sizeHint().height());
}

QRect ReadTtlBar::barRect() const
{
    const int badge = height() - 6;
    // Room for the countdown at its widest (so that the bar does not twitch as it counts), or for
    // a longer state ("stale: the server says it changed") while it is shown.
    const int textWidth = qMin(
        width() / 2, qMax(fontMetrics().horizontalAdvance(QStringLiteral("fresh · expires in 00 min 00 s")),
                          fontMetrics().horizontalAdvance(look().text)) +
                         8);
    const int left = badge + 10;
    return QRect(left, height() / 2 - 4, qMax(20, width() - left - textWidth - 8), 8);
}

void ReadTtlBar::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const StatusColors colors(palette());
    const Look l = look();
    const int badge = height() - 6;
    if (l.bar != Bar::None && l.bar != Bar::Loading && l.bar != Bar::Failed && l.bar != Bar::Legacy)
        colors.drawScopeBadge(&p, QRectF(2, 3, badge, badge), l.scope);
    const QRect bar = barRect();
    paintBar(&p, bar, l, colors, StatusColors::animationMs());
    p.setPen(l.bar == Bar::Failed ? colors.failed() : colors.text());
    p.drawText(QRect(bar.right() + 8, 0, width() - bar.right() - 8, height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(l.text, Qt::ElideRight, width() - bar.right() - 8));
}

// ---- TemplateReadDialog ----

TemplateReadDialog::TemplateReadDialog(McpClient *client, const QJsonObject &resourceTemplate,
                                       QWidget *parent)
    : QDialog(parent)
    , m_template(resourceTemplate.value(QStringLiteral("uriTemplate")).toString())
    , m_uri(new QLabel(this))
    , m_completionNote(new QLabel(this))
    , m_read(new QPushButton(tr("Read"), this))
{
    const QString name = resourceTemplate.value(QStringLiteral("title")).toString().isEmpty()
                             ? resourceTemplate.value(QStringLiteral("name")).toString()
                             : resourceTemplate.value(QStringLiteral("title")).toString();
    setWindowTitle(tr("Read from Template %1").arg(oneLineSafe(name)));
    const UriTemplate t(m_template);
    m_variables = t.variables();

    auto *layout = new QVBoxLayout(this);
    auto *templ = new QLabel(oneLineSafe(m_template), this);
    templ->setFont(fixedFont());
    templ->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(templ);
    if (const QString d = resourceTemplate.value(QStringLiteral("description")).toString(); !d.isEmpty()) {
        auto *desc = new WrapLabel(this);
        desc->setText(terminalSafe(d));
        desc->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(desc);
    }
    auto *form = new QFormLayout;
    m_completer = new ArgumentCompleter(client, ArgumentCompleter::resourceRef(m_template), this);
    connect(m_completer, &ArgumentCompleter::completed, this,
            [this](const QString &variable, const QStringList &values) {
                m_completions.value(variable)->setStringList(values);
                QLineEdit *edit = m_fields.value(variable);
                if (edit->hasFocus() && !values.isEmpty())
                    edit->completer()->complete();
            });
    connect(m_completer, &ArgumentCompleter::failed, this, [this](const QString &, const QString &message) {
        m_completionNote->setText(tr("Completion failed: %1").arg(message));
    });
    const bool completes = m_completer->isOffered();
    for (const QString &v : std::as_const(m_variables)) {
        auto *edit = new QLineEdit(this);
        const QString op = t.operatorOf(v);
        edit->setPlaceholderText(op == QLatin1String("?") || op == QLatin1String("&")
                                     ? tr("optional: left empty, it is left out")
                                 : op == QLatin1String("+") ? tr("reserved characters kept as typed")
                                                            : QString());
        edit->setObjectName(v);
        m_fields.insert(v, edit);
        form->addRow(QStringLiteral("%1%2").arg(op, v), edit);
        connect(edit, &QLineEdit::textChanged, this, &TemplateReadDialog::updateUri);
        if (completes) {
            auto *model = new QStringListModel(this);
            m_completions.insert(v, model);
            auto *completer = new QCompleter(model, this);
            completer->setCaseSensitivity(Qt::CaseInsensitive);
            completer->setCompletionMode(QCompleter::PopupCompletion);
            edit->setCompleter(completer);
            connect(edit, &QLineEdit::textEdited, this, [this, v] { askCompletion(v); });
        }
    }
    layout->addLayout(form);
    m_uri->setFont(fixedFont());
    m_uri->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_uri->setWordWrap(true);
    layout->addWidget(m_uri);
    m_completionNote->setForegroundRole(QPalette::PlaceholderText);
    m_completionNote->setText(completes ? tr("Suggestions come from the server (completion/complete).")
                                        : tr("The server offers no completion: type the values."));
    layout->addWidget(m_completionNote);
    if (!t.isValid()) {
        auto *error = new WrapLabel(this);
        error->setText(tr("This uriTemplate cannot be expanded: %1").arg(t.error()));
        layout->addWidget(error);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_read, QDialogButtonBox::AcceptRole);
    m_read->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_read->setEnabled(t.isValid());
    updateUri();
    // Suggestions for the first field before anything is typed.
    if (completes && !m_variables.isEmpty())
        askCompletion(m_variables.constFirst());
}

QCompleter *TemplateReadDialog::completer(const QString &variable) const
{
    const QLineEdit *edit = m_fields.value(variable);
    return edit ? edit->completer() : nullptr;
}

QString TemplateReadDialog::uri() const
{
    QHash<QString, QString> values;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        values.insert(it.key(), it.value()->text());
    return UriTemplate(m_template).expand(values);
}

void TemplateReadDialog::updateUri()
{
    m_uri->setText(tr("Reads %1").arg(uri()));
}

void TemplateReadDialog::askCompletion(const QString &variable)
{
    QJsonObject context;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        if (it.key() != variable && !it.value()->text().isEmpty())
            context.insert(it.key(), it.value()->text());
    }
    m_completer->ask(variable, m_fields.value(variable)->text(), context);
}

// ---- ReadView ----

ReadView::ReadView(ServerSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_uriField(new QLineEdit(this))
    , m_readButton(new QPushButton(tr("Read"), this))
    , m_list(new QTreeView(this))
    , m_detailStack(new QStackedWidget(this))
    , m_empty(new WrapLabel(this))
    , m_detail(new QWidget(this))
    , m_title(new QLabel(this))
    , m_ttl(new ReadTtlBar(this))
    , m_state(new QLabel(this))
    , m_hints(new QLabel(this))
    , m_subscription(new QLabel(this))
    , m_notCached(new WrapLabel(this))
    , m_findings(new WrapLabel(this))
    , m_error(new WrapLabel(this))
    , m_reread(new QPushButton(tr("Re-read"), this))
    , m_rereadOnExpiry(new QCheckBox(tr("Re-read when it expires"), this))
    , m_copyJson(new QPushButton(tr("Copy as JSON"), this))
    , m_close(new QPushButton(tr("Close"), this))
    , m_contents(new QWidget(this))
    , m_contentsLayout(new QVBoxLayout(m_contents))
{
    updatePlaceholder();
    // A read open here hears when its resource changes, where the server offers subscriptions.
    reads()->setSubscribes(true);
    m_uriField->setClearButtonEnabled(true);
    connect(m_uriField, &QLineEdit::returnPressed, m_readButton, &QPushButton::click);
    connect(m_readButton, &QPushButton::clicked, this, [this] {
        const QString uri = m_uriField->text().trimmed();
        if (!uri.isEmpty())
            readUri(uri);
    });
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(8, 6, 8, 0);
    bar->addWidget(m_uriField, 1);
    bar->addWidget(m_readButton);

    auto *delegate = new ReadDelegate(m_list);
    delegate->reads = reads();
    m_list->setItemDelegate(delegate);
    m_list->setModel(reads());
    m_list->setObjectName(QStringLiteral("readsList"));
    m_list->setUniformRowHeights(true);
    m_list->setRootIsDecorated(false);
    m_list->setHeaderHidden(true);
    m_list->header()->setStretchLastSection(true);
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { showRead(current.row()); });
    auto *closeKey = new QShortcut(QKeySequence::Delete, m_list);
    closeKey->setContext(Qt::WidgetShortcut);
    connect(closeKey, &QShortcut::activated, this, &ReadView::closeCurrent);

    m_empty->setText(
        tr("No resource read yet.\n\nType a URI above, double-click a resource in the resources "
           "tab (or select it and press Ctrl+R), or use Read from Template… in the templates tab."));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setMargin(16);

    m_title->setFont(titleFont(m_title->font()));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_hints->setFont(fixedFont());
    m_hints->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hints->setWordWrap(true);
    m_state->setForegroundRole(QPalette::PlaceholderText);
    m_state->setWordWrap(true);
    m_subscription->setObjectName(QStringLiteral("subscription"));
    m_subscription->setTextFormat(Qt::PlainText); // it may quote a server's error message
    m_subscription->setForegroundRole(QPalette::PlaceholderText);
    m_subscription->setWordWrap(true);
    m_close->setToolTip(tr("Close this read (Delete): it is forgotten and, where it was subscribed, "
                           "unsubscribed"));
    connect(m_close, &QPushButton::clicked, this, &ReadView::closeCurrent);
    m_notCached->setForegroundRole(QPalette::PlaceholderText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_reread, &QPushButton::clicked, this, [this] {
        if (m_row >= 0)
            reads()->reread(m_row);
    });
    connect(m_rereadOnExpiry, &QCheckBox::toggled, this, [this](bool on) {
        if (m_row >= 0)
            reads()->setRereadOnExpiry(m_row, on);
    });
    connect(m_copyJson, &QPushButton::clicked, this, [this] {
        if (m_row < 0)
            return;
        copyToClipboard(QString::fromUtf8(
            QJsonDocument(reads()->record(m_row).toJson()).toJson(QJsonDocument::Indented)));
        Q_EMIT statusMessage(tr("The read of %1 copied as JSON").arg(reads()->record(m_row).uri));
    });

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_reread);
    actions->addWidget(m_rereadOnExpiry);
    actions->addStretch();
    actions->addWidget(m_copyJson);
    actions->addWidget(m_close);

    m_contentsLayout->setContentsMargins(0, 0, 0, 0);
    m_contentsLayout->setSpacing(8);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_contents);

    auto *d = new QVBoxLayout(m_detail);
    d->setContentsMargins(8, 4, 8, 4);
    d->setSpacing(4);
    d->addWidget(m_title);
    d->addWidget(m_ttl);
    d->addWidget(m_hints);
    d->addWidget(m_state);
    d->addWidget(m_subscription);
    d->addWidget(m_notCached);
    d->addWidget(m_findings);
    d->addWidget(m_error);
    d->addLayout(actions);
    d->addWidget(scroll, 1);

    m_detailStack->addWidget(m_empty);
    m_detailStack->addWidget(m_detail);

    auto *split = new QSplitter(this);
    split->addWidget(m_list);
    split->addWidget(m_detailStack);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({240, 760});
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(reads(), &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft) { handleChanged(topLeft.row()); });
    connect(reads(), &QAbstractItemModel::modelReset, this, [this] { showRead(-1); });
    m_tick.setInterval(CountdownTickMs);
    connect(&m_tick, &QTimer::timeout, this, &ReadView::tick);
    showRead(-1);
}

ResourceReads *ReadView::reads() const
{
    return m_session->reads();
}

void ReadView::readUri(const QString &uri, const QString &uriTemplate)
{
    const int row = reads()->read(uri, uriTemplate);
    m_list->setCurrentIndex(reads()->index(row));
    showRead(row);
}

void ReadView::readFromTemplate(const QJsonObject &resourceTemplate)
{
    auto *dialog = new TemplateReadDialog(m_session->client(), resourceTemplate, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { readUri(dialog->uri(), dialog->uriTemplate()); });
    dialog->open();
}

void ReadView::showRead(int row)
{
    m_row = row >= 0 && row < reads()->count() ? row : -1;
    m_contentsShownFor = -1;
    m_ttl->setRead(reads(), m_row);
    if (m_row >= 0 && m_list->currentIndex().row() != m_row)
        m_list->setCurrentIndex(reads()->index(m_row));
    updateDetail();
}

void ReadView::closeCurrent()
{
    if (m_row < 0)
        return;
    const int row = m_row;
    const QString uri = reads()->record(row).uri;
    reads()->close(row);
    showRead(qMin(row, reads()->count() - 1));
    Q_EMIT statusMessage(tr("Closed the read of %1").arg(uri));
}

void ReadView::handleChanged(int row)
{
    if (row == m_row)
        updateDetail();
    m_list->update(reads()->index(row));
    updateTicking();
}

void ReadView::updateDetail()
{
    if (m_row < 0) {
        m_detailStack->setCurrentWidget(m_empty);
        updateTicking();
        return;
    }
    m_detailStack->setCurrentWidget(m_detail);
    const ReadRecord &r = reads()->record(m_row);
    const StatusColors colors(palette());
    m_title->setText(r.uriTemplate.isEmpty() ? r.uri : tr("%1  (from %2)").arg(r.uri, r.uriTemplate));
    if (r.hasContents()) {
        QStringList facts;
        facts << (r.legacyEra ? r.hintsLine() : r.hintsLine() + tr(" (as received)"));
        // What Folio counts down, when it is not what was sent (a fraction floored, an invalid value).
        if (r.hintsExpected && r.cacheable &&
            !(r.hints.ttlMs.isDouble() && r.hints.ttlMs.toDouble() == double(r.effectiveTtlMs)))
            facts << tr("counted as %1 ms").arg(r.effectiveTtlMs);
        m_hints->setText(facts.join(QStringLiteral(" · ")));
        const QString when =
            QDateTime::fromMSecsSinceEpoch(r.receivedAtMs).toString(QStringLiteral("HH:mm:ss"));
        m_state->setText(r.answers == 1
                             ? tr("read once, at %1 in %2 ms").arg(when, QString::number(r.latencyMs))
                             : tr("read %1 times, last at %2 in %3 ms")
                                   .arg(QString::number(r.answers), when, QString::number(r.latencyMs)));
    } else {
        // A failed first read has no hints to show: its error says what happened.
        m_hints->setText(r.isSettled() ? QString() : tr("waiting for the server…"));
        m_state->clear();
    }
    m_hints->setVisible(!m_hints->text().isEmpty());
    m_state->setVisible(!m_state->text().isEmpty());
    m_subscription->setText(oneLineSafe(r.subscriptionLine()));
    m_subscription->setVisible(!m_subscription->text().isEmpty());
    m_notCached->setText(r.notCachedReason().isEmpty() ? QString()
                                                       : tr("Not cached: %1.").arg(r.notCachedReason()));
    m_notCached->setVisible(!r.notCachedReason().isEmpty());

    QStringList findings;
    for (const Finding &f : r.findings)
        findings << QStringLiteral("<b style=\"color:%1\">%2</b> %3")
                        .arg(colors.severity(f.severity).name(), f.id, f.message.toHtmlEscaped());
    m_findings->setText(findings.join(QStringLiteral("<br>")));
    m_findings->setVisible(!findings.isEmpty());

    if (r.error.isError()) {
        QString code;
        if (r.error.kind == McpError::Kind::Rpc && (r.error.code == -32602 || r.error.code == -32002))
            code = r.error.code == -32602 ? tr(" — an unknown URI, as 2026-07-28 says it")
                                          : tr(" — an unknown URI (resource not found, before 2026)");
        m_error->setText(QStringLiteral("<b style=\"color:%1\">%2</b> %3%4")
                             .arg(colors.failed().name(),
                                  r.hasContents() ? tr("The re-read failed:") : tr("The read failed:"),
                                  r.error.describe().toHtmlEscaped(), code.toHtmlEscaped()));
    }
    m_error->setVisible(r.error.isError());
    m_reread->setEnabled(r.isSettled());
    {
        const QSignalBlocker block(m_rereadOnExpiry);
        m_rereadOnExpiry->setChecked(r.rereadOnExpiry);
    }
    // Legacy reads and reads that are never cached have no TTL to run out.
    m_rereadOnExpiry->setEnabled(!r.legacyEra);
    m_copyJson->setEnabled(r.isSettled());
    if (m_contentsShownFor != r.answers)
        rebuildContents();
    m_ttl->update();
    updateTicking();
}

void ReadView::rebuildContents()
{
    const ReadRecord &r = reads()->record(m_row);
    m_contentsShownFor = r.answers;
    while (QLayoutItem *item = m_contentsLayout->takeAt(0)) {
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    const QList<ReadContent> contents = r.contents();
    if (r.hasContents() && contents.isEmpty()) {
        auto *none = new QLabel(tr("The result has no contents."), m_contents);
        none->setForegroundRole(QPalette::PlaceholderText);
        m_contentsLayout->addWidget(none);
    }
    for (int i = 0; i < contents.size(); ++i)
        m_contentsLayout->addWidget(contentWidget(i));
    m_contentsLayout->addStretch();
}

QWidget *ReadView::contentWidget(int index)
{
    const ReadContent c = reads()->record(m_row).contents().at(index);
    auto *box = new QWidget(m_contents);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *head = new QHBoxLayout;
    auto *summary = new QLabel(box);
    summary->setFont(smallFont(summary->font()));
    summary->setForegroundRole(QPalette::PlaceholderText);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QString itemUri =
        c.uri.isEmpty() || c.uri == reads()->record(m_row).uri ? QString() : QStringLiteral(" · ") + c.uri;
    summary->setText(c.summary() + itemUri);
    head->addWidget(summary, 1);
    layout->addLayout(head);
    switch (c.kind) {
    case ReadContent::Kind::Text: {
        auto *text = new QPlainTextEdit(box);
        text->setObjectName(QStringLiteral("readText"));
        text->setReadOnly(true);
        text->setFont(fixedFont());
        text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        text->setPlainText(terminalSafe(c.text));
        // Tall enough for the text, within reason: the scroll area scrolls the rest.
        const int lines = qBound(3, int(c.text.count(QLatin1Char('\n'))) + 2, 30);
        text->setMinimumHeight(lines * text->fontMetrics().lineSpacing() + 12);
        layout->addWidget(text);
        break;
    }
    case ReadContent::Kind::Blob: {
        QImage image;
        if (c.isImage() && c.blobValid)
            image.loadFromData(c.data);
        if (!image.isNull()) {
            auto *picture = new QLabel(box);
            picture->setObjectName(QStringLiteral("readImage"));
            const int maxSide = 480;
            const QImage shown =
                image.width() > maxSide || image.height() > maxSide
                    ? image.scaled(maxSide, maxSide, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                    : image;
            picture->setPixmap(QPixmap::fromImage(shown));
            picture->setToolTip(
                tr("%1 × %2 px").arg(QString::number(image.width()), QString::number(image.height())));
            summary->setText(
                summary->text() +
                tr(" · %1 × %2 px").arg(QString::number(image.width()), QString::number(image.height())));
            layout->addWidget(picture);
        }
        if (c.blobValid) {
            auto *save = new QPushButton(tr("Save…"), box);
            head->addWidget(save);
            connect(save, &QPushButton::clicked, this, [this, c] {
                const QString name = c.uri.section(QLatin1Char('/'), -1);
                if (const QString said = FileChooser::saveBytes(this, tr("Save %1").arg(c.uri), c.data, name);
                    !said.isEmpty())
                    Q_EMIT statusMessage(said);
            });
        }
        break;
    }
    case ReadContent::Kind::Unknown: {
        auto *raw = new QLabel(QString::fromUtf8(QJsonDocument(c.raw).toJson(QJsonDocument::Compact)), box);
        raw->setFont(fixedFont());
        raw->setWordWrap(true);
        raw->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(raw);
        break;
    }
    }
    return box;
}

QStringList ReadView::shownTexts() const
{
    QStringList out;
    for (const QPlainTextEdit *e : m_contents->findChildren<QPlainTextEdit *>(QStringLiteral("readText")))
        out << e->toPlainText();
    return out;
}

void ReadView::updateTicking()
{
    // One timer, running only while something on screen counts down or is being read.
    bool needed = false, fast = false;
    if (isVisible()) {
        for (int row = 0; row < reads()->count(); ++row) {
            const PageRecord::State s = reads()->record(row).state;
            fast = fast || s == PageRecord::State::Refetching || s == PageRecord::State::Loading;
            needed = needed || fast || s == PageRecord::State::Fresh;
        }
    }
    if (!needed) {
        m_tick.stop();
        return;
    }
    m_tick.setInterval(fast ? StripeTickMs : CountdownTickMs);
    if (!m_tick.isActive())
        m_tick.start();
}

void ReadView::tick()
{
    m_ttl->update();
    m_list->viewport()->update();
    updateTicking();
}

// The example is this server's: the first resource it listed, when it has listed one (another
// server's URI would only fail).
void ReadView::updatePlaceholder()
{
    const PagedListModel *resources =
        m_session ? m_session->existingModel(QStringLiteral("resources")) : nullptr;
    const QString uri = resources && resources->rowCount() > 0
                            ? resources->item(0).value(QStringLiteral("uri")).toString()
                            : QString();
    m_uriField->setPlaceholderText(uri.isEmpty() || uri.size() > 80
                                       ? tr("A resource URI (or double-click one in the Resources tab)")
                                       : tr("A resource URI, e.g. %1").arg(terminalSafe(uri)));
}

void ReadView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    updatePlaceholder();
    updateTicking();
}

void ReadView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_tick.stop();
}

} // namespace folio
