#include "theme.h"

#include "icons.h"
#include "settingskeys.h"
#include "zoom.h"

#include <QActionGroup>
#include <QApplication>
#include <QFont>
#include <QHash>
#include <QMenu>
#include <QPalette>
#include <QPointer>
#include <QProxyStyle>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

namespace folio::Theme {

namespace {

// Fusion, with two changes to its icons:
// - the toolbar extension arrows (shown only when a bar overflows) are Folio's own themed SVGs
//   (ui/icons.h), drawn in the palette's colour: Fusion's are PNGs in one colour, and reading the
//   first of them when the legend bar is made probed every image plugin (3.6 M instructions and
//   four libraries loaded before the first page);
// - the dock title bar buttons' icons are made once: Fusion decodes them from XPM at every request,
//   and a dock asks for them each time its title bar is measured or laid out (18 times, 1.1 M
//   instructions, before the first frame). They depend on nothing in the option.
class FolioStyle : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;

    QIcon standardIcon(StandardPixmap icon, const QStyleOption *option, const QWidget *widget) const override
    {
        switch (icon) {
        case SP_TitleBarNormalButton:
        case SP_TitleBarMinButton:
        case SP_TitleBarCloseButton:
        case SP_DockWidgetCloseButton: {
            QIcon &cached = m_titleBarIcons[icon];
            if (cached.isNull())
                cached = QProxyStyle::standardIcon(icon, option, widget);
            return cached;
        }
        case SP_ToolBarHorizontalExtensionButton:
            return actionIcon(QStringLiteral("more-right"));
        case SP_ToolBarVerticalExtensionButton:
            return actionIcon(QStringLiteral("more-down"));
        default:
            return QProxyStyle::standardIcon(icon, option, widget);
        }
    }

    // Button and small icons grow with View > Zoom and presentation, as the text beside them does.
    int pixelMetric(PixelMetric metric, const QStyleOption *option, const QWidget *widget) const override
    {
        const int size = QProxyStyle::pixelMetric(metric, option, widget);
        switch (metric) {
        case PM_ButtonIconSize:
        case PM_SmallIconSize:
        case PM_TabBarIconSize:
            return qRound(size * uiZoom());
        default:
            return size;
        }
    }

private:
    mutable QHash<int, QIcon> m_titleBarIcons;
};

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x26, 0x28, 0x2d), base(0x1d, 0x1f, 0x23), text(0xe6, 0xe8, 0xeb);
    const QColor button(0x30, 0x33, 0x39), highlight(0x3d, 0x7e, 0xdb), mid(0x4a, 0x4e, 0x56);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x24, 0x26, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x32, 0x35, 0x3b));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8f, 0x98));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x3a, 0x3d, 0x44));
    p.setColor(QPalette::Midlight, QColor(0x34, 0x37, 0x3d));
    p.setColor(QPalette::Mid, mid);
    p.setColor(QPalette::Dark, QColor(0x16, 0x17, 0x1a));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x74, 0x78, 0x80));
    p.setColor(QPalette::Disabled, QPalette::Highlight, mid);
    return p;
}

QPalette lightPalette()
{
    QPalette p = QApplication::style()->standardPalette(); // Fusion's, set by apply()
    p.setColor(QPalette::Window, QColor(0xf3, 0xf4, 0xf6));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf6, 0xf7, 0xf9));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xd0));
    return p;
}

} // namespace

void apply(Mode mode)
{
    // Fusion draws the same on every desktop and honours any palette: light and dark look right.
    QApplication::setStyle(new FolioStyle(QStyleFactory::create(QStringLiteral("Fusion"))));
    // Text in scripts that need no shaping (Latin, Greek, Cyrillic, CJK...) is drawn from the
    // font's character map and advances, without HarfBuzz: most of the window's text is table
    // cells, and shaping them was a third of the cost of painting a screenful of rows. Scripts
    // that need shaping (Arabic, the Indic scripts...) still get it.
    QFont font = QApplication::font();
    font.setStyleStrategy(QFont::PreferNoShaping);
    QApplication::setFont(font);
    switch (mode) {
    case Mode::System:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Mode::Light:
        QApplication::setPalette(lightPalette());
        break;
    case Mode::Dark:
        QApplication::setPalette(darkPalette());
        break;
    }
}

Mode load()
{
    const QString v = QSettings().value(SettingsKey::Theme).toString();
    if (v == QLatin1String("light"))
        return Mode::Light;
    if (v == QLatin1String("dark"))
        return Mode::Dark;
    return Mode::System;
}

void save(Mode mode)
{
    QSettings().setValue(SettingsKey::Theme, name(mode));
}

QString name(Mode mode)
{
    switch (mode) {
    case Mode::System:
        return QStringLiteral("system");
    case Mode::Light:
        return QStringLiteral("light");
    case Mode::Dark:
        return QStringLiteral("dark");
    }
    return {};
}

void addMenu(QMenu *view)
{
    QMenu *menu = view->addMenu(QCoreApplication::translate("folio::Theme", "&Theme"));
    auto *group = new QActionGroup(menu);
    const Mode current = load();
    for (const auto &[mode, label] :
         {std::pair{Mode::System, QCoreApplication::translate("folio::Theme", "Follow the &System")},
          std::pair{Mode::Light, QCoreApplication::translate("folio::Theme", "&Light")},
          std::pair{Mode::Dark, QCoreApplication::translate("folio::Theme", "&Dark")}}) {
        QAction *a = menu->addAction(label);
        a->setCheckable(true);
        a->setChecked(mode == current);
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, menu, [mode = mode] {
            save(mode);
            apply(mode);
        });
    }
}

} // namespace folio::Theme
