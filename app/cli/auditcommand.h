#pragma once

#include "auditor.h"
#include "auditreport.h"
#include "clisession.h"
#include "command.h"
#include "serverconfig.h"

#include <QCommandLineOption>
#include <QPointer>

class QCommandLineParser;

namespace folio {

// The options that say what the audit does (--list, --allow-tool, --tool-args, --page-cap,
// --recheck-pages), for `folio audit` and `folio report` alike.
class AuditArguments
{
public:
    AuditArguments();
    void addTo(QCommandLineParser &parser) const;
    // On failure returns false and says why in *error (a usage error: exit code 2).
    bool read(const QCommandLineParser &parser, AuditOptions *options, QString *error) const;
    // Their lines of a command's help, under "Options:".
    static QString helpText();

private:
    QCommandLineOption m_list;
    QCommandLineOption m_allowTool;
    QCommandLineOption m_toolArgs;
    QCommandLineOption m_pageCap;
    QCommandLineOption m_recheck;
    QCommandLineOption m_walks;
    QCommandLineOption m_walkPause;
};

// `folio audit`: connects, runs the Auditor, prints its report in the chosen format.
class AuditCommand : public SessionCommand
{
    Q_OBJECT
public:
    struct Options
    {
        AuditOptions audit;
        AuditReportFormat format = AuditReportFormat::Text;
        bool verbose = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
        // folio record: where the session is saved (the audit's report still goes to stdout).
        QString recordPath;
    };

    // Parses the words after `folio audit` (record: after `folio record`, which also wants
    // -o FILE). Returns ParseOk to go on, or an exit code.
    static int parse(const QStringList &arguments, Options *options, bool record = false);
    static QString helpText();
    static QString recordHelpText();

    explicit AuditCommand(const Options &options, QObject *parent = nullptr);

protected:
    void connectFailed(const QString &reason) override;

private:
    void printUnreached(const QString &reason);
    // folio record: saves what the connection carried; false (said on stderr) when it could not.
    bool saveRecording();

    Options m_options;
    QPointer<Auditor> m_auditor;
};

} // namespace folio
