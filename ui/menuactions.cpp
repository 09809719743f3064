#include "menuactions.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>

namespace folio {

namespace {

void collect(QList<MenuAction> &out, const QString &menu, const QMenu *from, const QString &prefix)
{
    for (QAction *a : from->actions()) {
        if (a->isSeparator())
            continue;
        if (const QMenu *sub = a->menu()) {
            collect(out, menu, sub, prefix + plainMenuText(a->text()) + QStringLiteral(" \u203a "));
            continue;
        }
        out.append({menu, prefix + plainMenuText(a->text()), a});
    }
}

} // namespace

QList<MenuAction> menuActions(const QMenuBar *bar)
{
    QList<MenuAction> out;
    for (const QAction *a : bar->actions()) {
        if (const QMenu *menu = a->menu())
            collect(out, plainMenuText(a->text()), menu, QString());
    }
    return out;
}

QString plainMenuText(const QString &text)
{
    static const QRegularExpression mnemonic(QStringLiteral("&(?!&)"));
    QString out = text;
    out.remove(mnemonic);
    return out.replace(QLatin1String("&&"), QLatin1String("&"));
}

QString actionKeys(const QAction *action)
{
    QStringList keys;
    for (const QKeySequence &k : action->shortcuts())
        keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

} // namespace folio
