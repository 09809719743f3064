#pragma once

class QCoreApplication;

namespace folio {

// Installs Folio's English plural forms on app, so that a count reads "1 row", "2 rows" where the
// source says tr("%n row(s)", nullptr, n). Qt picks a numerus form only from a translation; this
// one (resources/translations/folio_en.ts, made with lupdate -pluralonly) holds nothing else.
// False if it could not be loaded (the texts then read "(s)").
bool installPluralForms(QCoreApplication *app);

} // namespace folio
