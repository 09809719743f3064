#pragma once

#include <QFont>
#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QMenu;
class QToolBar;

namespace folio {

class LegendBar;

// How the window is shown to a room: View > Presentation (full screen, the text at least 1.3×, the
// legend of the colours shown; leaving puts the zoom and the legend back as they were), Zoom
// In/Out/Actual Size, and the legend, a row of its own across the window's foot. Zoom and the
// legend are remembered, except while presenting. Presenting, the sidebar and the docks step aside
// so the list's strip and table fill the screen.
class Presentation : public QObject
{
    Q_OBJECT
public:
    explicit Presentation(QMainWindow *window);

    LegendBar *legend() const { return m_legend; }
    // View > Presentation, Zoom In, Zoom Out, Actual Size and Legend.
    void addViewActions(QMenu *view);

    void setZoom(qreal zoom);
    void setPresenting(bool on);
    bool isPresenting() const { return m_presenting; }
    void setLegendShown(bool shown);
    // What steps aside while presenting, with the docks: the window's sidebar. Each comes back
    // when presenting ends (a dock's own key brings it back meanwhile).
    void setSideWidget(QWidget *side) { m_side = side; }

private:
    QMainWindow *m_window;
    LegendBar *m_legend;
    QToolBar *m_legendBar;
    QAction *m_presentationAction;
    QAction *m_legendAction;
    QFont m_baseFont;
    bool m_presenting = false;
    qreal m_zoomBefore = 1.0;
    bool m_legendBefore = false;
    QWidget *m_side = nullptr;
    QList<QPointer<QWidget>> m_steppedAside; // the sidebar and docks hidden for the presentation
};

} // namespace folio
