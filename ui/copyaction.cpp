#include "copyaction.h"

#include "secretmask.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QWidget>

namespace folio {

QAction *addCopyAction(QWidget *widget, std::function<QString()> text)
{
    widget->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *copy = new QAction(QApplication::translate("folio::CopyAction", "Copy"), widget);
    QObject::connect(copy, &QAction::triggered, widget,
                     [text = std::move(text)] { copyToClipboard(text()); });
    widget->addAction(copy);
    return copy;
}

void copyToClipboard(const QString &text)
{
    QApplication::clipboard()->setText(SecretMask::maskOutput(text));
}

} // namespace folio
