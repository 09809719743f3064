#include "plurals.h"

#include <QCoreApplication>
#include <QTranslator>

namespace folio {

bool installPluralForms(QCoreApplication *app)
{
    auto *plurals = new QTranslator(app);
    if (!plurals->load(QStringLiteral(":/i18n/folio_en.qm")) ||
        !QCoreApplication::installTranslator(plurals)) {
        delete plurals;
        return false;
    }
    return true;
}

} // namespace folio
