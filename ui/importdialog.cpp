#include "importdialog.h"

#include "fonts.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

ImportDialog::ImportDialog(QWidget *parent)
    : QDialog(parent)
    , m_source(new QPlainTextEdit(this))
    , m_preview(new QTreeWidget(this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Import servers"));
    auto *intro =
        new QLabel(tr("Paste the JSON of another MCP client, or open its file: the <code>mcpServers</code> "
                      "object of Claude Desktop, Cursor or <code>.mcp.json</code>, or VS Code's "
                      "<code>servers</code>. Nothing is started: check what each server would run."),
                   this);
    intro->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true); // a keychain sentence after the count
    m_preview->setObjectName(QStringLiteral("preview"));
    m_source->setFont(fixedFont());
    m_source->setPlaceholderText(
        QStringLiteral("{\n  \"mcpServers\": {\n    \"everything\": { \"command\": \"npx\", "
                       "\"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"] }\n  }\n}"));
    m_preview->setColumnCount(ColumnCount);
    m_preview->setHeaderLabels(
        {tr("Import"), tr("Kind"), tr("Would run"), tr("To the keychain"), tr("Note")});
    m_preview->headerItem()->setToolTip(SecretsColumn, tr("Tokens and secret environment values are saved "
                                                          "in the system keychain, never in Folio's "
                                                          "settings, and shown here masked."));
    m_preview->setRootIsDecorated(false);
    m_preview->header()->setStretchLastSection(true);
    auto *open = new QPushButton(tr("Open file…"), this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = buttons->addButton(tr("Import selected"), QDialogButtonBox::AcceptRole);
    m_import->setEnabled(false);
    buttons->addButton(open, QDialogButtonBox::ActionRole);
    connect(open, &QPushButton::clicked, this, &ImportDialog::openFile);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_source, &QPlainTextEdit::textChanged, this, &ImportDialog::parse);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_source, 2);
    layout->addWidget(m_preview, 2);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 560);
}

void ImportDialog::setJson(const QByteArray &json)
{
    m_source->setPlainText(QString::fromUtf8(json));
}

void ImportDialog::openFile()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open an MCP client's configuration"),
                                                      QDir::homePath(), tr("JSON (*.json);;All files (*)"));
    if (file.isEmpty())
        return;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("Could not read %1: %2").arg(file, f.errorString()));
        return;
    }
    setJson(f.readAll());
}

void ImportDialog::parse()
{
    m_preview->clear();
    const QByteArray json = m_source->toPlainText().toUtf8();
    if (json.trimmed().isEmpty()) {
        m_status->clear();
        m_import->setEnabled(false);
        return;
    }
    m_result = ServerImport::parse(json);
    if (!m_result.error.isEmpty()) {
        m_status->setText(m_result.error);
        m_import->setEnabled(false);
        return;
    }
    int withSecrets = 0;
    for (const ServerImport::Entry &e : std::as_const(m_result.entries)) {
        auto *item = new QTreeWidgetItem(m_preview);
        item->setText(NameColumn, e.config.name);
        item->setCheckState(NameColumn, e.warning.contains(tr("skipped")) ? Qt::Unchecked : Qt::Checked);
        item->setText(KindColumn, e.config.hasUrl() ? tr("HTTP") : tr("stdio"));
        item->setText(RunsColumn, ServerImport::describe(e.config));
        item->setToolTip(RunsColumn, ServerImport::describe(e.config));
        const QStringList secrets = ServerImport::describeSecrets(e.config);
        item->setText(SecretsColumn, secrets.join(QStringLiteral("; ")));
        item->setToolTip(SecretsColumn, secrets.join(QLatin1Char('\n')));
        item->setText(NoteColumn, e.warning);
        item->setToolTip(NoteColumn, e.warning);
        withSecrets += secrets.isEmpty() ? 0 : 1;
    }
    for (int c = 0; c < NoteColumn; ++c)
        m_preview->resizeColumnToContents(c);
    QString status = tr("%n server(s) found in \"%1\".", nullptr, int(m_result.entries.size()))
                         .arg(m_result.entries.isEmpty() ? QString() : m_result.entries.first().source);
    if (withSecrets > 0)
        status += QLatin1Char(' ') + tr("Their secrets go to the system keychain, not to Folio's settings; "
                                        "if the keychain refuses one, Folio keeps it for this session only "
                                        "and says so.");
    m_status->setText(status);
    m_import->setEnabled(!m_result.entries.isEmpty());
}

QList<ServerConfig> ImportDialog::selected() const
{
    QList<ServerConfig> out;
    for (int i = 0; i < m_preview->topLevelItemCount() && i < m_result.entries.size(); ++i) {
        if (m_preview->topLevelItem(i)->checkState(NameColumn) == Qt::Checked)
            out.append(m_result.entries.at(i).config);
    }
    return out;
}

} // namespace folio
