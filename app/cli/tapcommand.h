#pragma once

#include "clientjudge.h"
#include "command.h"
#include "pagedecoder.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QStringList>

namespace folio {

class SessionRecorder;
class TapRelay;

// `folio tap [options] -- COMMAND ARGS…`: stands in a client's configuration where the server's
// command was. It starts the server and relays every byte both ways unchanged (net/taprelay.h),
// judges the client from what passed (models/clientjudge.h), and when the client or the server
// ends it: writes the judge's findings (--judge), the session (--record, a .folio file marked as a
// tap), and a summary on stderr. Nothing but the server's bytes ever goes to stdout.
class TapCommand : public Command
{
    Q_OBJECT
public:
    struct Options
    {
        QStringList command; // the server's program and arguments
        QString judgeFile;   // --judge: .md for Markdown, .sarif for SARIF, else JSON ("" for none)
        QString recordFile;  // --record ("" for none)
        bool quiet = false;  // --quiet: no summary on stderr
        bool verbose = false;
        int graceMs = 2000; // how long a server has to exit after its stdin closed
        qint64 relistGraceMs = ClientJudge::Options().listChangedGraceMs; // --relist-grace-ms
    };

    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit TapCommand(const Options &options, QObject *parent = nullptr);
    ~TapCommand() override;

    void start() override;

    // The judge's findings and the client's walks as `--judge FILE.json` writes them.
    static QJsonObject judgeJson(const ClientJudge &judge, const QJsonObject &session);
    // The same as Markdown (`--judge FILE.md`).
    static QString judgeMarkdown(const ClientJudge &judge, const QJsonObject &session);

private:
    void onFrame(int from, const QByteArray &frame, qint64 t);
    void onFinished(int exitStatus, const QString &why);
    // A server's answer to a protocol list request, read for the judge without parsing its items
    // (into *messages); false for anything else, which is parsed whole.
    bool decodePage(int from, const QByteArray &frame, QJsonArray *messages);
    // What the session was, for the judge's file and the recording's header.
    QJsonObject sessionJson() const;
    bool writeRecording(QString *error) const;
    bool writeJudge(QString *error) const;

    Options m_options;
    TapRelay *m_relay;
    SessionRecorder *m_recorder = nullptr;
    ClientJudge m_judge;
    QStringList m_secrets;               // values masked in what is written
    QMap<QString, QString> m_handshakes; // request id (as JSON text) -> "initialize" / "server/discover"
    QHash<QString, QByteArray> m_listRequests; // request id (as JSON text) -> its items key ("tools")
    PageDecoder m_pageDecoder;
    QJsonObject m_clientInfo;
    QJsonObject m_serverInfo;
    QJsonObject m_capabilities;
    QString m_instructions;
    qint64 m_startedAtMs = 0;
    qint64 m_durationMs = 0;
    int m_serverExit = -1;
    QString m_serverWhy;
    QJsonObject m_cost; // what the tap itself cost: {cpuMs, peakRssKiB} (getrusage, RUSAGE_SELF)
};

} // namespace folio
