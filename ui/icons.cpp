#include "icons.h"

#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QSvgRenderer>

namespace folio {

namespace {

class ThemedIconEngine : public QIconEngine
{
public:
    explicit ThemedIconEngine(QByteArray svg)
        : m_svg(std::move(svg))
    {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State) override
    {
        const QPalette palette = QGuiApplication::palette();
        const QPalette::ColorGroup group = mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Active;
        const QColor colour = mode == QIcon::Selected ? palette.color(group, QPalette::HighlightedText)
                                                      : palette.color(group, QPalette::ButtonText);
        QByteArray svg = m_svg;
        // SVG Tiny (QtSvg) reads #rrggbb, not #aarrggbb: the colour's alpha is the painter's opacity.
        svg.replace("currentColor", colour.name(QColor::HexRgb).toLatin1());
        painter->save();
        painter->setOpacity(painter->opacity() * colour.alphaF());
        QSvgRenderer renderer(svg);
        renderer.render(painter, QRectF(rect));
        painter->restore();
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal scale) override
    {
        // Kept per size, mode and colour: a palette change (light to dark) draws anew.
        const QPalette palette = QGuiApplication::palette();
        const QString key = QStringLiteral("%1x%2@%3/%4/%5")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(scale)
                                .arg(int(mode))
                                .arg(palette.color(QPalette::ButtonText).rgba());
        if (const auto it = m_cache.constFind(key); it != m_cache.constEnd())
            return *it;
        QPixmap pixmap(size * scale);
        pixmap.setDevicePixelRatio(scale);
        pixmap.fill(Qt::transparent);
        {
            QPainter painter(&pixmap);
            painter.setRenderHint(QPainter::Antialiasing);
            paint(&painter, QRect(QPoint(0, 0), size), mode, state);
        }
        if (m_cache.size() > 32)
            m_cache.clear();
        m_cache.insert(key, pixmap);
        return pixmap;
    }

    QIconEngine *clone() const override { return new ThemedIconEngine(m_svg); }
    QString key() const override { return QStringLiteral("folio-themed-svg"); }

private:
    QByteArray m_svg;
    QHash<QString, QPixmap> m_cache;
};

} // namespace

QIcon actionIcon(const QString &name)
{
    QFile file(QStringLiteral(":/icons/actions/%1.svg").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return QIcon();
    return QIcon(new ThemedIconEngine(file.readAll()));
}

} // namespace folio
