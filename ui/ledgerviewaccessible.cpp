#include "pagestripaccessible.h"

#include "pagestrip.h"

#include <QAccessibleWidget>
#include <QHash>
#include <QPointer>
#include <QWindow>

namespace folio {

namespace {

// One chip, by ledger row; valid while the strip holds that row.
class ChipAccessible : public QAccessibleInterface
{
public:
    ChipAccessible(PageStrip *strip, int row)
        : m_strip(strip)
        , m_row(row)
    {}

    bool isValid() const override { return m_strip && m_row < m_strip->chipCount(); }
    QObject *object() const override { return nullptr; }
    QWindow *window() const override { return m_strip ? m_strip->window()->windowHandle() : nullptr; }
    QAccessibleInterface *parent() const override { return QAccessible::queryAccessibleInterface(m_strip); }
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
            return m_strip->chipAccessibleName(m_row);
        case QAccessible::Description:
            return m_strip->chipAccessibleDescription(m_row);
        default:
            return {};
        }
    }

    QRect rect() const override
    {
        if (!isValid())
            return {};
        const QRect r = m_strip->chipRect(m_row);
        return r.isEmpty() ? QRect() : QRect(m_strip->viewport()->mapToGlobal(r.topLeft()), r.size());
    }

    QAccessible::State state() const override
    {
        QAccessible::State s;
        s.selectable = true;
        s.focusable = true;
        if (!isValid() || m_strip->chipRect(m_row).isEmpty()) {
            s.invisible = true;
            s.offscreen = true;
        }
        if (isValid() && m_strip->currentPage() == m_row) {
            s.selected = true;
            s.focused = m_strip->hasFocus();
        }
        return s;
    }

private:
    QPointer<PageStrip> m_strip;
    int m_row;
};

// The strip itself: a list of chips. Its chips' interfaces are made on demand and kept (Qt asks for
// the same child again and compares pointers), and deleted with it.
class StripAccessible : public QAccessibleWidget
{
public:
    explicit StripAccessible(PageStrip *strip)
        : QAccessibleWidget(strip, QAccessible::List)
    {}
    ~StripAccessible() override
    {
        for (QAccessible::Id id : std::as_const(m_chips))
            QAccessible::deleteAccessibleInterface(id);
    }

    PageStrip *strip() const { return static_cast<PageStrip *>(widget()); }

    int childCount() const override { return strip()->chipCount(); }

    QAccessibleInterface *child(int index) const override
    {
        if (index < 0 || index >= strip()->chipCount())
            return nullptr;
        if (const auto it = m_chips.constFind(index); it != m_chips.constEnd())
            return QAccessible::accessibleInterface(*it);
        auto *chip = new ChipAccessible(strip(), index);
        m_chips.insert(index, QAccessible::registerAccessibleInterface(chip));
        return chip;
    }

    int indexOfChild(const QAccessibleInterface *child) const override
    {
        for (auto it = m_chips.constBegin(); it != m_chips.constEnd(); ++it) {
            if (QAccessible::accessibleInterface(it.value()) == child)
                return it.key();
        }
        return -1;
    }

    QAccessibleInterface *childAt(int x, int y) const override
    {
        const int row = strip()->chipAt(strip()->viewport()->mapFromGlobal(QPoint(x, y)));
        return row >= 0 ? child(row) : nullptr;
    }

private:
    mutable QHash<int, QAccessible::Id> m_chips;
};

QAccessibleInterface *stripFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String("folio::PageStrip") && object && object->isWidgetType())
        return new StripAccessible(static_cast<PageStrip *>(object));
    return nullptr;
}

} // namespace

void installPageStripAccessibility()
{
    static const bool installed = [] {
        QAccessible::installFactory(stripFactory);
        return true;
    }();
    Q_UNUSED(installed)
}

} // namespace folio
