#pragma once

#include "auditor.h"
#include "bugreport.h"
#include "clisession.h"
#include "command.h"
#include "serverconfig.h"

#include <QPointer>

namespace folio {

// `folio report`: connects, runs the Auditor (which walks every list), keeps each list's first
// walk, and writes a bug report (BugReport) of the pages, the findings and the traffic.
class ReportCommand : public SessionCommand
{
    Q_OBJECT
public:
    struct Options
    {
        AuditOptions audit;
        BugReportFormat format = BugReportFormat::Html;
        QString output; // a file, or "-" for stdout
        bool maskCursors = false;
        bool verbose = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
    };

    // Parses the words after `folio report`. Returns ParseOk to go on, or an exit code.
    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit ReportCommand(const Options &options, QObject *parent = nullptr);

protected:
    void connectFailed(const QString &reason) override;

private:
    BugReport::Server serverFacts() const;
    // Writes the report; false (said on stderr) when the file could not be written.
    bool write(const BugReport::Input &input);
    void writeUnreached(const QString &reason);

    Options m_options;
    QPointer<Auditor> m_auditor;
    QList<BugReport::List> m_lists;
};

} // namespace folio
