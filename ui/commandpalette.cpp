#include "commandpalette.h"

#include "statuscolors.h"
#include "terminaltext.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

namespace {

enum Role { KindRole = Qt::UserRole + 1, DetailRole };

// A row: the text, its detail muted after it, the kind muted at the right edge; each elided so a
// long item name never widens the palette.
class EntryDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        size.setHeight(option.fontMetrics.height() + 10);
        return size;
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        const QWidget *widget = option.widget;
        widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
        const bool selected = option.state & QStyle::State_Selected;
        const QColor text = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
        QColor muted = selected ? text : StatusColors(option.palette).mutedText();
        if (selected)
            muted.setAlphaF(0.75);
        const QRect r = option.rect.adjusted(10, 0, -10, 0);
        const QFontMetrics fm(option.font);
        const QString kind = index.data(KindRole).toString();
        const int kindWidth = fm.horizontalAdvance(kind) + 12;
        painter->save();
        painter->setPen(muted);
        painter->drawText(r, Qt::AlignRight | Qt::AlignVCenter, kind);
        const int room = qMax(0, r.width() - kindWidth);
        const QString main = fm.elidedText(index.data().toString(), Qt::ElideRight, room);
        painter->setPen(text);
        painter->drawText(QRect(r.left(), r.top(), room, r.height()), Qt::AlignLeft | Qt::AlignVCenter, main);
        const int used = fm.horizontalAdvance(main) + 12;
        const QString detail = index.data(DetailRole).toString();
        if (!detail.isEmpty() && used < room) {
            painter->setPen(muted);
            painter->drawText(QRect(r.left() + used, r.top(), room - used, r.height()),
                              Qt::AlignLeft | Qt::AlignVCenter,
                              fm.elidedText(detail, Qt::ElideRight, room - used));
        }
        painter->restore();
    }
};

bool isWordStart(const QString &text, qsizetype i)
{
    if (i == 0)
        return true;
    const QChar before = text.at(i - 1);
    return !before.isLetterOrNumber() || (before.isLower() && text.at(i).isUpper());
}

} // namespace

// The shown entries: indices into the palette's list, best first.
class CommandPalette::Model : public QAbstractListModel
{
public:
    explicit Model(const QList<Entry> *entries, QObject *parent)
        : QAbstractListModel(parent)
        , m_entries(entries)
    {}

    void setShown(QList<int> shown)
    {
        beginResetModel();
        m_shown = std::move(shown);
        endResetModel();
    }
    int entryAt(int row) const { return m_shown.value(row, -1); }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_shown.size());
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || index.row() >= m_shown.size())
            return {};
        const Entry &e = m_entries->at(m_shown.at(index.row()));
        switch (role) {
        case Qt::DisplayRole:
            return e.text;
        case Qt::AccessibleTextRole:
            return e.text + QStringLiteral(", ") + e.kind;
        case Qt::ToolTipRole:
            return e.detail.isEmpty() ? e.text : e.text + QLatin1Char('\n') + e.detail;
        case KindRole:
            return e.kind;
        case DetailRole:
            return e.detail;
        default:
            return {};
        }
    }

private:
    const QList<Entry> *m_entries;
    QList<int> m_shown;
};

CommandPalette::CommandPalette(QWidget *parent)
    : QDialog(parent, Qt::Popup | Qt::FramelessWindowHint)
    , m_field(new QLineEdit(this))
    , m_list(new QListView(this))
    , m_model(new Model(&m_entries, this))
{
    setObjectName(QStringLiteral("commandPalette"));
    setAccessibleName(tr("Find anything"));
    m_field->setObjectName(QStringLiteral("paletteField"));
    m_field->setPlaceholderText(tr("Find an action, a server, a list, an item or a finding"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    m_list->setObjectName(QStringLiteral("paletteList"));
    m_list->setModel(m_model);
    m_list->setItemDelegate(new EntryDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setFocusPolicy(Qt::NoFocus); // the field keeps the keys; arrows move the list
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setAccessibleName(tr("Matches"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(m_field);
    layout->addWidget(m_list, 1);
    connect(m_field, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_list, &QListView::clicked, this, [this](const QModelIndex &index) {
        m_list->setCurrentIndex(index);
        runCurrent();
    });
}

CommandPalette::~CommandPalette() = default;

void CommandPalette::setEntries(QList<Entry> entries)
{
    m_entries = std::move(entries);
    for (Entry &e : m_entries) { // what a server sent is shown, never interpreted
        e.text = terminalSafe(e.text).simplified();
        e.detail = terminalSafe(e.detail).simplified();
    }
    refilter();
}

void CommandPalette::popup()
{
    QWidget *window = parentWidget() ? parentWidget()->window() : nullptr;
    const QRect area = window ? window->geometry() : QRect(0, 0, 800, 600);
    const int width = qBound(320, area.width() * 6 / 10, 760);
    const int height = qBound(200, area.height() / 2, 480);
    setGeometry(area.left() + (area.width() - width) / 2, area.top() + qMin(80, area.height() / 8), width,
                height);
    m_field->clear();
    refilter();
    show();
    raise();
    activateWindow();
    m_field->setFocus();
}

QStringList CommandPalette::shownTexts() const
{
    QStringList texts;
    for (int row = 0; row < m_model->rowCount(); ++row)
        texts.append(m_entries.at(m_model->entryAt(row)).text);
    return texts;
}

int CommandPalette::score(const QString &query, const QString &text)
{
    if (query.isEmpty())
        return 0;
    int total = 0;
    qsizetype at = 0;
    qsizetype previous = -2;
    for (const QChar q : query) {
        if (q.isSpace())
            continue;
        qsizetype found = -1;
        // A word start of this letter ahead is better than the next occurrence, unless the next
        // continues the run.
        const qsizetype next = text.indexOf(q, at, Qt::CaseInsensitive);
        if (next < 0)
            return -1;
        found = next;
        if (next != previous + 1) {
            for (qsizetype i = next; i < text.size(); ++i) {
                if (text.at(i).toCaseFolded() == q.toCaseFolded() && isWordStart(text, i)) {
                    found = i;
                    break;
                }
            }
        }
        total += 1;
        if (found == previous + 1)
            total += 10; // a run
        if (isWordStart(text, found))
            total += 6;
        previous = found;
        at = found + 1;
    }
    // An early first letter and a short text win ties.
    total -= int(qMin<qsizetype>(text.indexOf(query.at(0), 0, Qt::CaseInsensitive), 20));
    total -= int(qMin<qsizetype>(text.size() / 8, 10));
    return qMax(total, 0);
}

void CommandPalette::refilter()
{
    const QString query = m_field->text().trimmed();
    QList<QPair<int, int>> scored; // score, entry
    for (int i = 0; i < m_entries.size(); ++i) {
        const Entry &e = m_entries.at(i);
        int s = score(query, e.text);
        if (s < 0 && !e.detail.isEmpty()) {
            s = score(query, e.detail);
            s = s < 0 ? -1 : s / 2; // a match in the detail counts less
        }
        if (s >= 0)
            scored.append({s, i});
    }
    // Best first; entries keep their given order (actions, servers, lists, ...) among equals.
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    QList<int> shown;
    for (qsizetype i = 0; i < scored.size() && i < MaxShown; ++i)
        shown.append(scored.at(i).second);
    m_model->setShown(shown);
    if (!shown.isEmpty())
        m_list->setCurrentIndex(m_model->index(0));
}

void CommandPalette::runCurrent()
{
    const int entry = m_model->entryAt(m_list->currentIndex().row());
    if (entry < 0)
        return;
    const std::function<void()> run = m_entries.at(entry).run;
    accept(); // closed first: what runs may open a window of its own
    if (run)
        run();
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            // The list moves while the field keeps the focus.
            QCoreApplication::sendEvent(m_list, event);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            runCurrent();
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void CommandPalette::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        reject();
        return;
    }
    QDialog::keyPressEvent(event);
}

} // namespace folio
