#pragma once

#include "auditor.h"
#include "clisession.h"
#include "serverconfig.h"
#include "targetsnapshotcommand.h"

namespace folio {

// `folio snapshot -o FILE`: connects (or replays a recording), walks every list and list tool to
// its end with the Auditor's walks and no probe (TargetSnapshotCommand), and writes a Snapshot
// (docs/snapshot-format.md).
class SnapshotCommand : public TargetSnapshotCommand
{
    Q_OBJECT
public:
    struct Options
    {
        AuditOptions audit;
        QString output; // a file, or "-" for stdout
        bool verbose = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
    };

    // Parses the words after `folio snapshot`. Returns ParseOk to go on, or an exit code.
    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit SnapshotCommand(const Options &options, QObject *parent = nullptr);

protected:
    void taken() override;

private:
    Options m_options;
};

} // namespace folio
