#include "cli.h"

namespace folio {

bool isCliCommand(const QString &)
{
    return false;
}

int runCli(const QString &, const QStringList &)
{
    return 2;
}

} // namespace folio
