#pragma once

#include "clisession.h"
#include "clitarget.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace folio {

// A subcommand's command line, parsed the one way they all share: the words before the first "--"
// go to QCommandLineParser (options may follow positional arguments), the words after it are a
// stdio server's command (or, for decode-cursor, cursors); -h/--help, -v/--verbose and
// --format are always there, the target options (TargetOptions) where the command talks to a
// server. A usage error is said as "folio WORD: why" and "Try 'folio WORD --help'." and is exit
// code 2. A command adds its own options to parser(), calls parse(), then reads what it needs.
class CommandLine
{
public:
    enum class Target { None, Server };

    // word: "list", "get-prompt"; defaultFormat: --format's value when not given ("" for none).
    CommandLine(const QString &word, const QStringList &arguments, const QString &defaultFormat,
                Target target = Target::Server);

    QCommandLineParser &parser() { return m_parser; }
    // Parses: ParseOk to go on, else the exit code (0 once helpText is printed for --help, 2 after
    // a usage error).
    int parse(const QString &helpText);
    // Says message as a usage error; returns 2.
    int usage(const QString &message) const;

    // The help's rows for -v/--verbose and -h/--help, which every command takes, with their text
    // at column (as the command's other options) and wrapped within 80 columns; verbose says what
    // -v shows where a command differs from the default (the server's stderr, each request and
    // transport events). Ends with an empty line.
    static QString sharedOptionsHelp(int column, const QString &verbose = QString());

    bool verbose() const { return m_parser.isSet(m_verbose); }
    bool formatGiven() const { return m_parser.isSet(m_format); }
    QString format() const { return m_parser.value(m_format); }
    QStringList positional() const { return m_parser.positionalArguments(); }
    // The words after "--".
    QStringList rest() const { return m_rest; }

    // --format text (false) or json (true); false with why in *problem for anything else.
    bool textOrJson(bool *json, QString *problem) const;
    // The one positional argument in *value; false with why in *problem when there is none (missing
    // says what to give) or more than one.
    bool onePositional(QString *value, const QString &missing, const QString &what, QString *problem) const;
    // No positional argument; false with why in *problem.
    bool noPositional(QString *problem) const;
    // An option that holds a JSON object (--args); false with why in *problem, an example in it.
    bool jsonObject(const QCommandLineOption &option, const QString &example, QJsonObject *value,
                    QString *problem) const;
    // An option that holds a whole number of at least 1.
    bool positiveInt(const QCommandLineOption &option, int *value) const;
    // The server: false with why in *problem.
    bool readTarget(ServerConfig *server, CliSession::KeychainToken *keychainToken, QString *problem);
    const TargetOptions &target() const { return m_target; }

private:
    QString m_word;
    QStringList m_words;
    QStringList m_rest;
    QCommandLineParser m_parser;
    QCommandLineOption m_help;
    QCommandLineOption m_verbose;
    QCommandLineOption m_format;
    TargetOptions m_target;
};

} // namespace folio
