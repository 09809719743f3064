#include "presentation.h"

#include "legendbar.h"
#include "settingskeys.h"
#include "zoom.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QToolBar>

namespace folio {

Presentation::Presentation(QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_legend(new LegendBar(window))
    , m_legendBar(new QToolBar(tr("Legend"), window))
    , m_presentationAction(new QAction(tr("&Presentation"), window))
    , m_legendAction(new QAction(tr("&Legend"), window))
{
    m_legendBar->setObjectName(QStringLiteral("legendBar"));
    m_legendBar->setMovable(false);
    m_legendBar->setFloatable(false);
    m_legendBar->toggleViewAction()->setVisible(false); // View > Legend says it
    m_legendBar->addWidget(m_legend);
    window->addToolBar(Qt::BottomToolBarArea, m_legendBar);
    m_legendBar->setVisible(QSettings().value(SettingsKey::Legend, false).toBool());

    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(Qt::Key_F11));
    connect(m_presentationAction, &QAction::toggled, this, &Presentation::setPresenting);
    m_legendAction->setCheckable(true);
    m_legendAction->setChecked(!m_legendBar->isHidden());
    m_legendAction->setToolTip(tr("What the colours and badges mean, in the status bar"));
    connect(m_legendAction, &QAction::toggled, this, [this](bool on) {
        m_legendBar->setVisible(on);
        if (!m_presenting)
            QSettings().setValue(SettingsKey::Legend, on);
    });
}

void Presentation::addViewActions(QMenu *view)
{
    view->addAction(m_presentationAction);
    QAction *zoomIn = view->addAction(tr("Zoom &In"), this, [this] { setZoom(uiZoom() * 1.15); });
    zoomIn->setShortcuts({QKeySequence(tr("Ctrl+=")), QKeySequence::ZoomIn});
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { setZoom(uiZoom() / 1.15); });
    zoomOut->setShortcuts({QKeySequence(tr("Ctrl+-")), QKeySequence::ZoomOut});
    view->addAction(tr("&Actual Size"), QKeySequence(tr("Ctrl+0")), this, [this] { setZoom(1.0); });
    view->addAction(m_legendAction);
}

void Presentation::setLegendShown(bool shown)
{
    m_legendAction->setChecked(shown);
}

void Presentation::setZoom(qreal zoom)
{
    if (m_baseFont.pointSizeF() <= 0)
        m_baseFont = QApplication::font(); // actual size, as the platform gave it
    setUiZoom(zoom);
    QFont f = m_baseFont;
    f.setPointSizeF(m_baseFont.pointSizeF() * uiZoom());
    QApplication::setFont(f); // every widget's text, and the strip's and timeline's sizes with it
    if (!m_presenting)
        QSettings().setValue(SettingsKey::Zoom, uiZoom());
}

void Presentation::setPresenting(bool on)
{
    if (on == m_window->isFullScreen() && on == m_presenting)
        return;
    if (on) {
        m_zoomBefore = uiZoom();
        m_legendBefore = m_legendAction->isChecked();
        m_presenting = true;
        m_steppedAside.clear();
        QList<QWidget *> aside{m_side};
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
            aside.append(dock);
        for (QWidget *w : std::as_const(aside)) {
            if (w && w->isVisible()) {
                m_steppedAside.append(w);
                w->hide();
            }
        }
        m_window->showFullScreen();
        setZoom(qMax(uiZoom(), 1.3));
        m_legendAction->setChecked(true);
    } else {
        for (const QPointer<QWidget> &w : std::as_const(m_steppedAside)) {
            if (w)
                w->show();
        }
        m_steppedAside.clear();
        m_window->showNormal();
        m_legendAction->setChecked(m_legendBefore);
        m_presenting = false;
        setZoom(m_zoomBefore);
    }
    const QSignalBlocker blocker(m_presentationAction);
    m_presentationAction->setChecked(on);
}

} // namespace folio
