#include "theme.h"

#include "icons.h"

#include <QApplication>
#include <QImage>
#include <QPalette>
#include <QPixmap>
#include <QProxyStyle>
#include <QStyle>
#include <QTest>
#include <QWidget>

using namespace folio;

// The theme: Fusion with Folio's palettes; icons the style defers still draw.
class tst_Theme : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void palettesDiffer();
    void extensionArrowsDraw();
    void titleBarIconsAreMadeOnce();
    void actionIconsFollowThePalette();
};

namespace {

// An icon's most opaque pixel: a stroke, away from the antialiased edges.
QColor strongest(const QImage &image)
{
    QColor best(Qt::transparent);
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (const QColor c = image.pixelColor(x, y); c.alpha() > best.alpha())
                best = c;
    return best;
}

} // namespace

void tst_Theme::palettesDiffer()
{
    Theme::apply(Theme::Mode::Dark);
    const QColor darkWindow = QApplication::palette().color(QPalette::Window);
    Theme::apply(Theme::Mode::Light);
    const QColor lightWindow = QApplication::palette().color(QPalette::Window);
    QVERIFY(darkWindow.lightness() < 100);
    QVERIFY(lightWindow.lightness() > 200);
    QVERIFY(QApplication::font().styleStrategy() & QFont::PreferNoShaping);
}

void tst_Theme::extensionArrowsDraw()
{
    // Folio's own arrows, drawn in the palette's text colour: dark on light, light on dark.
    for (const auto sp :
         {QStyle::SP_ToolBarHorizontalExtensionButton, QStyle::SP_ToolBarVerticalExtensionButton}) {
        Theme::apply(Theme::Mode::Light);
        const QIcon icon = QApplication::style()->standardIcon(sp);
        QVERIFY(!icon.isNull());
        const QImage image = icon.pixmap(16, 16).toImage();
        QVERIFY(!image.isNull());
        const QColor light = strongest(image);
        QVERIFY2(light.alpha() > 200, "the extension arrow has visible pixels");
        QVERIFY2(light.lightness() < 100, qPrintable(light.name()));
        // A copy of the icon draws the same.
        const QIcon copy = icon;
        QCOMPARE(copy.pixmap(16, 16).toImage(), image);
        Theme::apply(Theme::Mode::Dark);
        const QColor dark = strongest(icon.pixmap(16, 16).toImage());
        QVERIFY2(dark.lightness() > 150, qPrintable(dark.name()));
    }
    Theme::apply(Theme::Mode::Light);
    // Other standard icons are the style's own.
    QVERIFY(!QApplication::style()->standardIcon(QStyle::SP_DialogOkButton).isNull());
}

void tst_Theme::titleBarIconsAreMadeOnce()
{
    // Dock title bars ask for these at every measure; Fusion would decode an XPM each time.
    Theme::apply(Theme::Mode::Light);
    QStyle *style = QApplication::style();
    for (const auto sp : {QStyle::SP_TitleBarCloseButton, QStyle::SP_TitleBarNormalButton,
                          QStyle::SP_TitleBarMinButton, QStyle::SP_DockWidgetCloseButton}) {
        const QIcon first = style->standardIcon(sp);
        QVERIFY(!first.isNull());
        QVERIFY(!first.pixmap(10, 10).isNull());
        QCOMPARE(style->standardIcon(sp).cacheKey(), first.cacheKey());
        // The same pixels as the base style's own icon.
        const QIcon base = qobject_cast<QProxyStyle *>(style)->baseStyle()->standardIcon(sp);
        QCOMPARE(first.pixmap(10, 10).toImage(), base.pixmap(10, 10).toImage());
    }
    // After a theme change the style is new, and so are its icons: still drawn.
    Theme::apply(Theme::Mode::Dark);
    QVERIFY(!QApplication::style()->standardIcon(QStyle::SP_TitleBarCloseButton).isNull());
    Theme::apply(Theme::Mode::Light);
}

// The action icons are drawn in the palette's button-text colour when drawn: dark strokes in
// light, light strokes in dark, the disabled colour when disabled; a name with no file is null.
void tst_Theme::actionIconsFollowThePalette()
{
    QVERIFY(actionIcon(QStringLiteral("no-such-icon")).isNull());
    const auto strokes = [](QIcon::Mode mode) {
        return strongest(actionIcon(QStringLiteral("restart")).pixmap(QSize(24, 24), mode).toImage());
    };
    Theme::apply(Theme::Mode::Light);
    const QColor light = strokes(QIcon::Normal);
    QVERIFY(light.alpha() > 200);
    QVERIFY2(light.lightness() < 100, qPrintable(light.name()));
    QVERIFY(strokes(QIcon::Disabled) != light);
    Theme::apply(Theme::Mode::Dark);
    const QColor dark = strokes(QIcon::Normal);
    QVERIFY2(dark.lightness() > 150, qPrintable(dark.name()));
    Theme::apply(Theme::Mode::Light);
}

QTEST_MAIN(tst_Theme)
#include "tst_theme.moc"
