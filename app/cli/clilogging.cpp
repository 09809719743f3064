#include "clilogging.h"

#include "terminaltext.h"

#include <cstdio>
#include <cstdlib>

namespace folio {

Q_LOGGING_CATEGORY(lcCli, "folio.cli", QtWarningMsg)

void enableVerboseLogging()
{
    QLoggingCategory::setFilterRules(QStringLiteral("folio.*=true"));
}

namespace {

void writeMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray line = (terminalSafe(qFormatLogMessage(type, context, message)) + u'\n').toUtf8();
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    std::fflush(stderr);
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

void installMessageHandler()
{
    qInstallMessageHandler(writeMessage);
}

} // namespace folio
