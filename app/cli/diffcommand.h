#pragma once

#include "auditor.h"
#include "clisession.h"
#include "command.h"
#include "diffreport.h"
#include "serverconfig.h"
#include "snapshot.h"

#include <QPointer>

#include <array>
#include <optional>

namespace folio {

class TargetSnapshotCommand;

// `folio diff A B`: two snapshots of a server compared (SnapshotDiff, docs/diff.md). Each side is
// a snapshot file, a recording (FILE.folio, replayed and walked as `folio snapshot` does) or the
// live target given by --url, --server or -- COMMAND (one side at most).
class DiffCommand : public Command
{
    Q_OBJECT
public:
    struct Side
    {
        QString file;        // a snapshot file to read; empty when taken (live or a recording)
        ServerConfig server; // the server to take it from, when file is empty
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
        QString label; // where it came from, as the report names it
    };

    struct Options
    {
        std::array<Side, 2> sides;
        AuditOptions audit;
        DiffReport::Format format = DiffReport::Format::Text;
        DiffReport::FailOn failOn = DiffReport::FailOn::Breaking;
        QString output; // a file; empty or "-": stdout
        bool verbose = false;
    };

    // Parses the words after `folio diff`. Returns ParseOk to go on, or an exit code.
    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit DiffCommand(const Options &options, QObject *parent = nullptr);

    void start() override;

private:
    // Reads or takes the next side; compares once both are there.
    void next();
    void compare();
    void fail(const QString &message);

    Options m_options;
    std::array<std::optional<Snapshot>, 2> m_snapshots;
    QPointer<TargetSnapshotCommand> m_taker;
};

} // namespace folio
