#include "clilogging.h"

#include "secretmask.h"

#include <cstdio>

namespace folio {

Q_LOGGING_CATEGORY(lcCli, "folio.cli", QtWarningMsg)

void enableVerboseLogging()
{
    QLoggingCategory::setFilterRules(QStringLiteral("folio.*=true"));
}

namespace {

QtMessageHandler previousHandler = nullptr;

void maskingHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QString masked = SecretMask::maskLogLine(message);
    if (previousHandler) {
        previousHandler(type, context, masked);
        return;
    }
    const QByteArray line = qFormatLogMessage(type, context, masked).toUtf8() + '\n';
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    std::fflush(stderr);
}

} // namespace

void installMaskingMessageHandler()
{
    previousHandler = qInstallMessageHandler(maskingHandler);
}

} // namespace folio
