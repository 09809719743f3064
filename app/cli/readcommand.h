#pragma once

#include "clisession.h"
#include "command.h"
#include "serverconfig.h"

#include <QPointer>

namespace folio {

class ResourceReads;
class TtlClock;

// `folio read URI`: one resources/read through the same ResourceReads the window uses, printed as
// text (each content item, then the cache hints as received and their findings) or, with
// --format json, the result as received.
class ReadCommand : public SessionCommand
{
    Q_OBJECT
public:
    struct Options
    {
        QString uri;
        bool json = false; // --format json
        bool verbose = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
    };

    // Parses the words after `folio read`. Returns ParseOk to go on, or an exit code (0 after
    // --help, 2 for bad usage, having said why on stderr).
    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit ReadCommand(const Options &options, QObject *parent = nullptr);
    ~ReadCommand() override;

private:
    void handleRead(int row);

    Options m_options;
    TtlClock *m_clock;
    ResourceReads *m_reads = nullptr;
};

} // namespace folio
