#pragma once

#include "serverconfig.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QStackedWidget;
class QLabel;
class QPushButton;

namespace folio {

// Adds or edits a server: stdio (command, arguments, environment, working directory) or HTTP
// (URL, transport, headers, bearer token). The token goes to the keychain, never the config.
class ServerDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ServerDialog(QWidget *parent = nullptr);

    void setConfig(const ServerConfig &config);
    ServerConfig config() const;
    // What the user typed in the token field: empty and untouched means "keep what is saved".
    QString token() const;
    bool tokenEdited() const { return m_tokenEdited; }

    // Arguments as one line that QProcess::splitCommand() reads back to the same list: an argument
    // with a space, a quote or nothing in it is quoted, a quote in it tripled.
    static QString joinArguments(const QStringList &arguments);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateKind();
    void validate();
    // A whole command line in the Command field ("npx -y pkg stdio", pasted or typed): its first
    // word stays, the rest goes before the arguments.
    void splitCommandLine();
    void applyColors();

    QLineEdit *m_name;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QLineEdit *m_command;
    QLineEdit *m_arguments;
    QPlainTextEdit *m_environment;
    QLineEdit *m_workingDirectory;
    QPlainTextEdit *m_roots;
    QLineEdit *m_url;
    QComboBox *m_httpMode;
    QPlainTextEdit *m_headers;
    QLineEdit *m_token;
    QComboBox *m_revision;
    QSpinBox *m_timeout;
    QSpinBox *m_maxMessage;
    QLabel *m_problem; // always laid out, empty when all is well: the dialog never reflows
    QPushButton *m_saveButton = nullptr;
    bool m_tokenEdited = false;
    bool m_hadToken = false;
    int m_commandLength = 0; // the Command field's length before the last edit
    // The limit setConfig() was given: kept while the spin box shows it (in whole MiB).
    qint64 m_loadedMaxMessageBytes = ServerConfig::DefaultMaxMessageBytes;
};

} // namespace folio
