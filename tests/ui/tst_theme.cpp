#include "theme.h"

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
};

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
    Theme::apply(Theme::Mode::Light);
    for (const auto sp :
         {QStyle::SP_ToolBarHorizontalExtensionButton, QStyle::SP_ToolBarVerticalExtensionButton}) {
        const QIcon icon = QApplication::style()->standardIcon(sp);
        QVERIFY(!icon.isNull());
        QVERIFY(!icon.availableSizes().isEmpty());
        const QImage image = icon.pixmap(16, 16).toImage();
        QVERIFY(!image.isNull());
        bool drawn = false;
        for (int y = 0; y < image.height() && !drawn; ++y) {
            for (int x = 0; x < image.width() && !drawn; ++x)
                drawn = qAlpha(image.pixel(x, y)) > 0;
        }
        QVERIFY2(drawn, "the extension arrow has visible pixels");
        // A copy of the icon draws the same.
        const QIcon copy = icon;
        QCOMPARE(copy.pixmap(16, 16).toImage(), image);
    }
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

QTEST_MAIN(tst_Theme)
#include "tst_theme.moc"
