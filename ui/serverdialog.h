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
// (URL, transport, headers, bearer token). It says where each secret is (in the keychain, kept for
// this session only, none) and shows a secret only masked; config() hands a new token and new
// secret values to ServerListModel, which saves them in the keychain, never in the config.
class ServerDialog : public QDialog
{
    Q_OBJECT
public:
    // The Kind combo's rows (and the pages they show).
    enum KindRow { ProcessKind = 0, RemoteKind = 1 };

    explicit ServerDialog(QWidget *parent = nullptr);
    ~ServerDialog() override;

    // config as its session holds it: with a token or secret values held for this session only
    // (bearerToken, envHeld) and why the keychain refused them.
    void setConfig(const ServerConfig &config);
    // A token typed here is in bearerToken with tokenInKeychain false (not saved yet); one left as
    // it was stays where it is (tokenInKeychain, or bearerToken when held); a cleared one is gone.
    // Secret environment lines left as shown stay where they are (envInKeychain, envHeld).
    ServerConfig config() const;
    // What the user typed in the token field: empty and untouched means "keep what is saved".
    QString token() const;
    bool tokenEdited() const { return m_tokenEdited; }

    // What the dialog shows for a secret environment value in the keychain, for its NAME=… line.
    static QString keychainMark();

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
    void updateTokenNote();
    void fitHeight(); // tall enough for the notes' wrapped text

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
    QLabel *m_tokenNote; // where the token is: in the keychain, this session only, none
    QLabel *m_envNote;   // where the secret environment values are, when there are any
    QComboBox *m_revision;
    QSpinBox *m_timeout;
    QSpinBox *m_maxMessage;
    QSpinBox *m_maxWalk;
    QLabel *m_problem; // always laid out, empty when all is well: the dialog never reflows
    QPushButton *m_saveButton = nullptr;
    bool m_tokenEdited = false;
    bool m_hadToken = false;               // saved in the keychain
    QString m_heldToken;                   // kept for this session only
    QString m_keychainRefusal;             // why, as the keychain said
    QMap<QString, QString> m_shownSecrets; // NAME -> what its line shows instead of the value
    QMap<QString, QString> m_heldValues;   // NAME -> its value held for this session only
    int m_commandLength = 0;               // the Command field's length before the last edit
    // The limit setConfig() was given: kept while the spin box shows it (in whole MiB).
    qint64 m_loadedMaxMessageBytes = ServerConfig::DefaultMaxMessageBytes;
    qint64 m_loadedMaxWalkBytes = ServerConfig::DefaultMaxWalkBytes;
};

} // namespace folio
