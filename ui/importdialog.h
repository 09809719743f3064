#pragma once

#include "serverimport.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace folio {

// Imports servers from another client's JSON (Claude Desktop, Cursor, .mcp.json, VS Code) and
// shows exactly what each would run before anything is saved or started, its secrets masked.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    enum Columns { NameColumn, KindColumn, RunsColumn, SecretsColumn, NoteColumn, ColumnCount };

    explicit ImportDialog(QWidget *parent = nullptr);

    void setJson(const QByteArray &json);
    // The checked servers, their secrets still in them (bearerToken, envHeld) for ServerListModel
    // to save in the keychain.
    QList<ServerConfig> selected() const;

private:
    void parse();
    void openFile();

    QPlainTextEdit *m_source;
    QTreeWidget *m_preview;
    QLabel *m_status;
    QPushButton *m_import;
    ServerImport m_result;
};

} // namespace folio
