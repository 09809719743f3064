#pragma once

#include <QCommandLineParser>
#include <QCoreApplication>

namespace bench {

// A benchmark's command line: each option is declared with its default in one call, --help is added
// last, and numbers are read with the floor every bench applies (at least one run, one row, ...).
class Options
{
public:
    // --name VALUE, VALUE shown as valueName in --help ("N", "MS", ...).
    void add(const char *name, const char *description, const char *fallback, const char *valueName = "N")
    {
        m_parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(description),
                                              QString::fromLatin1(valueName), QString::fromLatin1(fallback)));
    }
    // --name, without a value.
    void addSwitch(const char *name, const char *description)
    {
        m_parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(description)));
    }
    void process(const QCoreApplication &app)
    {
        m_parser.addHelpOption();
        m_parser.process(app);
    }

    QString text(const char *name) const { return m_parser.value(QString::fromLatin1(name)); }
    // The option as a whole number, no less than floor.
    int number(const char *name, int floor = 1) const { return qMax(floor, text(name).toInt()); }
    bool isSet(const char *name) const { return m_parser.isSet(QString::fromLatin1(name)); }

private:
    QCommandLineParser m_parser;
};

} // namespace bench
