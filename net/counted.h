#pragma once

#include <QString>

namespace folio {

// A count in English words for texts that are not translated (findings, the command line's
// messages, reports): "1 page", "3 pages", "0 pages". The window's own texts count through tr()
// and the plural forms of resources/translations/folio_en.ts instead.
inline QString counted(qint64 n, const char *one, const char *many)
{
    return QString::number(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

} // namespace folio
