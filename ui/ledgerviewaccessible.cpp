#include "ledgerviewaccessible.h"

#include "ledgerview.h"

#include <QAccessibleWidget>
#include <QHash>
#include <QPointer>
#include <QWindow>

namespace folio {

namespace {

// One row, by ledger row (a row keeps its number while the view shows it; its position can move,
// as the timeline puts a new walk on top); valid while the view holds that row.
class RowAccessible : public QAccessibleInterface
{
public:
    RowAccessible(LedgerView *view, int row)
        : m_view(view)
        , m_row(row)
    {}

    bool isValid() const override { return m_view && m_row < m_view->rowCount(); }
    QObject *object() const override { return nullptr; }
    QWindow *window() const override { return m_view ? m_view->window()->windowHandle() : nullptr; }
    QAccessibleInterface *parent() const override { return QAccessible::queryAccessibleInterface(m_view); }
    QAccessibleInterface *child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface *) const override { return -1; }
    QAccessibleInterface *childAt(int, int) const override { return nullptr; }
    QAccessible::Role role() const override { return QAccessible::ListItem; }
    void setText(QAccessible::Text, const QString &) override {}

    QString text(QAccessible::Text t) const override
    {
        if (!isValid())
            return {};
        switch (t) {
        case QAccessible::Name:
            return m_view->pageAccessibleName(m_row);
        case QAccessible::Description:
            return m_view->pageAccessibleDescription(m_row);
        default:
            return {};
        }
    }

    QRect rect() const override
    {
        if (!isValid())
            return {};
        const QRect r = m_view->rowRect(m_row);
        return r.isEmpty() ? QRect() : QRect(m_view->viewport()->mapToGlobal(r.topLeft()), r.size());
    }

    QAccessible::State state() const override
    {
        QAccessible::State s;
        s.selectable = true;
        s.focusable = true;
        // A row scrolled away keeps its rectangle; one outside the viewport is off screen.
        const QRect r = isValid() ? m_view->rowRect(m_row) : QRect();
        if (r.isEmpty() || !m_view->viewport()->rect().intersects(r)) {
            s.invisible = r.isEmpty();
            s.offscreen = true;
        }
        if (isValid() && m_view->currentPage() == m_row) {
            s.selected = true;
            s.focused = m_view->hasFocus();
        }
        return s;
    }

private:
    QPointer<LedgerView> m_view;
    int m_row;
};

// The view itself: a list of rows. Its rows' interfaces are made on demand and kept (Qt asks for
// the same child again and compares pointers), and deleted with it.
class LedgerViewAccessible : public QAccessibleWidget
{
public:
    explicit LedgerViewAccessible(LedgerView *view)
        : QAccessibleWidget(view, QAccessible::List)
    {}
    ~LedgerViewAccessible() override
    {
        for (QAccessible::Id id : std::as_const(m_rows))
            QAccessible::deleteAccessibleInterface(id);
    }

    LedgerView *view() const { return static_cast<LedgerView *>(widget()); }

    int childCount() const override { return view()->rowCount(); }

    // Children in the order the view shows its rows.
    QAccessibleInterface *child(int index) const override
    {
        if (index < 0 || index >= view()->rowCount())
            return nullptr;
        const int row = view()->rowAtPosition(index);
        if (row < 0)
            return nullptr;
        if (const auto it = m_rows.constFind(row); it != m_rows.constEnd())
            return QAccessible::accessibleInterface(*it);
        auto *item = new RowAccessible(view(), row);
        m_rows.insert(row, QAccessible::registerAccessibleInterface(item));
        return item;
    }

    int indexOfChild(const QAccessibleInterface *child) const override
    {
        for (auto it = m_rows.constBegin(); it != m_rows.constEnd(); ++it) {
            if (QAccessible::accessibleInterface(it.value()) == child)
                return it.key() < view()->rowCount() ? view()->positionOfRow(it.key()) : -1;
        }
        return -1;
    }

    QAccessibleInterface *childAt(int x, int y) const override
    {
        const int row = view()->rowAt(view()->viewport()->mapFromGlobal(QPoint(x, y)));
        return row >= 0 ? child(view()->positionOfRow(row)) : nullptr;
    }

private:
    mutable QHash<int, QAccessible::Id> m_rows; // by ledger row
};

// Qt calls a factory with each class name of an object, from the most derived up: every
// subclass of LedgerView reaches this one before the item view's and the scroll area's.
QAccessibleInterface *ledgerViewFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String("folio::LedgerView") && object && object->isWidgetType())
        return new LedgerViewAccessible(static_cast<LedgerView *>(object));
    return nullptr;
}

} // namespace

void installLedgerViewAccessibility()
{
    static const bool installed = [] {
        QAccessible::installFactory(ledgerViewFactory);
        return true;
    }();
    Q_UNUSED(installed)
}

} // namespace folio
