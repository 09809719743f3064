#pragma once

#include <QObject>

#include <csignal>

class QSocketNotifier;

namespace folio {

// SIGINT and SIGTERM, caught for a command that has something to finish first (folio tasks run
// cancels its task): while an Interrupt lives, the signals no longer end the process but arrive
// as received() on the event loop. The handler (sigaction) only writes the signal's number to a
// socketpair, which a QSocketNotifier reads ("Calling Qt Functions From Unix Signal Handlers").
// One Interrupt at a time; its destruction puts the previous handlers back. A signal the process
// was started with ignored (a job run with '&' by a script, nohup) stays ignored.
class Interrupt : public QObject
{
    Q_OBJECT
public:
    explicit Interrupt(QObject *parent = nullptr);
    ~Interrupt() override;

    // Whether the handlers are in place (false when the socketpair could not be made).
    bool isCatching() const { return m_notifier != nullptr; }
    // How many signals arrived so far.
    int count() const { return m_count; }

    // The exit status a shell expects of a process the signal ended: 128 + its number.
    static int exitCode(int signal) { return 128 + signal; }
    // "SIGINT", "SIGTERM".
    static QString signalName(int signal);

Q_SIGNALS:
    // A signal arrived; count is 1 for the first, 2 for the second, and so on.
    void received(int signal, int count);

private:
    void readSignals();

    QSocketNotifier *m_notifier = nullptr;
    int m_fds[2] = {-1, -1};
    struct sigaction m_previousInt = {};
    struct sigaction m_previousTerm = {};
    bool m_installedInt = false;
    bool m_installedTerm = false;
    int m_count = 0;
};

} // namespace folio
