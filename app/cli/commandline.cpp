#include "commandline.h"

#include "clioutput.h"
#include "command.h"

#include <QJsonDocument>

namespace folio {

CommandLine::CommandLine(const QString &word, const QStringList &arguments, const QString &defaultFormat,
                         Target target)
    : m_word(word)
    , m_help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("help"))
    , m_verbose({QStringLiteral("v"), QStringLiteral("verbose")}, QStringLiteral("verbose"))
    , m_format(QStringLiteral("format"), QStringLiteral("format"), QStringLiteral("F"), defaultFormat)
{
    TargetOptions::splitStdioCommand(arguments, &m_words, &m_rest);
    m_parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    m_parser.addOptions({m_help, m_verbose, m_format});
    if (target == Target::Server)
        m_target.addTo(m_parser);
}

QString CommandLine::sharedOptionsHelp(int column, const QString &verbose)
{
    constexpr int Width = 80;
    const auto row = [column](const QString &option, const QString &text) {
        QString out = QStringLiteral("  ") + option;
        out =
            out.size() < column ? out.leftJustified(column) : out + QLatin1Char('\n') + QString(column, u' ');
        int lineStart = int(out.lastIndexOf(QLatin1Char('\n')) + 1);
        bool first = true;
        for (const QString &word : text.split(QLatin1Char(' '))) {
            if (!first && out.size() - lineStart + 1 + word.size() > Width) {
                out += QLatin1Char('\n') + QString(column, u' ');
                lineStart = int(out.size()) - column;
            } else if (!first) {
                out += QLatin1Char(' ');
            }
            out += word;
            first = false;
        }
        return out + QLatin1Char('\n');
    };
    return row(QStringLiteral("-v, --verbose"),
               verbose.isEmpty()
                   ? QStringLiteral("log the server's stderr, each request and transport events "
                                    "on stderr (every folio.* logging category; see 'folio --help')")
                   : verbose) +
           row(QStringLiteral("-h, --help"), QStringLiteral("show this help")) + QLatin1Char('\n');
}

int CommandLine::usage(const QString &message) const
{
    printErr(QStringLiteral("folio %1: %2\nTry 'folio %1 --help'.\n").arg(m_word, message));
    return 2;
}

int CommandLine::parse(const QString &helpText)
{
    if (!m_parser.parse(QStringList{QStringLiteral("folio ") + m_word} + m_words))
        return usage(m_parser.errorText());
    if (m_parser.isSet(m_help)) {
        printOut(helpText);
        return 0;
    }
    return ParseOk;
}

bool CommandLine::onePositional(QString *value, const QString &missing, const QString &what,
                                QString *problem) const
{
    const QStringList words = positional();
    if (words.isEmpty()) {
        *problem = missing;
        return false;
    }
    if (words.size() > 1) {
        *problem =
            QStringLiteral("one %1 at a time (unexpected '%2'); a stdio server's command goes after '--'")
                .arg(what, words.at(1));
        return false;
    }
    *value = words.constFirst();
    return true;
}

bool CommandLine::textOrJson(bool *json, QString *problem) const
{
    if (format() == QLatin1String("text") || format() == QLatin1String("json")) {
        *json = format() == QLatin1String("json");
        return true;
    }
    *problem = QStringLiteral("--format is text or json");
    return false;
}

bool CommandLine::noPositional(QString *problem) const
{
    if (positional().isEmpty())
        return true;
    *problem = QStringLiteral("unexpected '%1' (a stdio server's command goes after '--')")
                   .arg(positional().constFirst());
    return false;
}

bool CommandLine::jsonObject(const QCommandLineOption &option, const QString &example, QJsonObject *value,
                             QString *problem) const
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(m_parser.value(option).toUtf8(), &error);
    if (error.error == QJsonParseError::NoError && doc.isObject()) {
        *value = doc.object();
        return true;
    }
    *problem = QStringLiteral("--%1 wants a JSON object, e.g. '%2'%3")
                   .arg(option.names().constFirst(), example,
                        error.error != QJsonParseError::NoError
                            ? QStringLiteral(" (%1 at offset %2)")
                                  .arg(error.errorString(), QString::number(error.offset))
                            : QString());
    return false;
}

bool CommandLine::positiveInt(const QCommandLineOption &option, int *value) const
{
    bool ok = false;
    *value = m_parser.value(option).toInt(&ok);
    return ok && *value >= 1;
}

bool CommandLine::readTarget(ServerConfig *server, CliSession::KeychainToken *keychainToken, QString *problem)
{
    if (!m_target.read(m_parser, m_rest, problem))
        return false;
    *server = m_target.config();
    if (keychainToken)
        *keychainToken = m_target.keychainToken();
    return true;
}

} // namespace folio
