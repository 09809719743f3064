#include "clilogging.h"

#include "secretmask.h"
#include "terminaltext.h"

#include <cstdio>

namespace folio {

Q_LOGGING_CATEGORY(lcCli, "folio.cli", QtWarningMsg)

void enableVerboseLogging()
{
    QLoggingCategory::setFilterRules(QStringLiteral("folio.*=true"));
}

namespace {

QtMessageHandler previousHandler = nullptr;

void folioHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    // Masked first (a secret is matched as it is), then terminal-safe: log lines quote servers
    // (their stderr with -v, error texts, names).
    const QString safe = terminalSafe(SecretMask::maskLogLine(message));
    if (previousHandler) {
        previousHandler(type, context, safe);
        return;
    }
    const QByteArray line = qFormatLogMessage(type, context, safe).toUtf8() + '\n';
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    std::fflush(stderr);
}

} // namespace

void installMessageHandler()
{
    previousHandler = qInstallMessageHandler(folioHandler);
}

} // namespace folio
