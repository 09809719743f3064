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

private:
    void updateKind();
    void validate();

    QLineEdit *m_name;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QLineEdit *m_command;
    QLineEdit *m_arguments;
    QPlainTextEdit *m_environment;
    QLineEdit *m_workingDirectory;
    QLineEdit *m_url;
    QComboBox *m_httpMode;
    QPlainTextEdit *m_headers;
    QLineEdit *m_token;
    QComboBox *m_revision;
    QSpinBox *m_timeout;
    QSpinBox *m_maxMessage;
    QLabel *m_problem;
    QPushButton *m_saveButton = nullptr;
    bool m_tokenEdited = false;
    bool m_hadToken = false;
    // The limit setConfig() was given: kept while the spin box shows it (in whole MiB).
    qint64 m_loadedMaxMessageBytes = ServerConfig::DefaultMaxMessageBytes;
};

} // namespace folio
