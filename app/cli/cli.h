#pragma once

#include <QStringList>

namespace folio {

// The headless subcommands: list, decode-cursor, audit. Returns the process exit code.
bool isCliCommand(const QString &word);
int runCli(const QString &command, const QStringList &arguments);

} // namespace folio
