#pragma once

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QStringList>

namespace bench {

// One run of a program under measurement: wall times from just before fork() (monotonic clock), its
// output counted and dropped, and the peak resident memory of its process tree sampled from /proc.
struct ProcessSpec
{
    QStringList command;              // program and arguments
    QMap<QByteArray, QByteArray> env; // added to (or replacing in) the inherited environment
    // Processes in the tree whose memory is not the measured program's (the server it spawns over
    // stdio), by their /proc comm name (15 characters at most).
    QStringList excludeComms;
    QByteArray stderrMarker;        // a line of stderr that starts with this ends the measurement
    bool stopAtMarker = false;      // terminate the tree once the marker is seen
    bool stopAtFirstStdout = false; // terminate the tree at the first stdout byte
    int timeoutMs = 300'000;
    int sampleMs = 4; // /proc sampling interval for the peak RSS
};

struct ProcessResult
{
    qint64 startNs = 0; // monotonicNs() just before fork()
    bool ok = false;    // exited on its own with status 0, or was stopped as asked
    int exitStatus = -1;
    double exitMs = -1; // spawn -> reaped
    double firstStdoutMs = -1;
    double lastStdoutMs = -1;
    double markerMs = -1;
    QByteArray markerLine;
    qint64 stdoutBytes = 0;
    qint64 stdoutLines = 0;
    qint64 peakRssKb = 0;  // sum over the tree (excluded processes left out) of each one's VmHWM
    QByteArray stderrTail; // the last few kB of stderr
    QByteArray stdoutHead; // the first kB of stdout
};

ProcessResult runProcess(const ProcessSpec &spec);

// The demo server on Streamable HTTP (a free loopback port) for as long as the object lives.
class DemoHttpServer
{
public:
    explicit DemoHttpServer(const QStringList &arguments);
    ~DemoHttpServer();
    QString url() const { return m_url; }
    // The server's CPU time so far (user + system), from /proc.
    double cpuSeconds() const;

private:
    QProcess m_process;
    QString m_url;
};

// Monotonic nanoseconds (CLOCK_MONOTONIC, the clock every process on the machine shares).
qint64 monotonicNs();

} // namespace bench
