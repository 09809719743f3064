#include "importdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
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
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setPlaceholderText(
        QStringLiteral("{\n  \"mcpServers\": {\n    \"everything\": { \"command\": \"npx\", "
                       "\"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"] }\n  }\n}"));
    m_preview->setColumnCount(4);
    m_preview->setHeaderLabels({tr("Import"), tr("Kind"), tr("Would run"), tr("Note")});
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
    for (const ServerImport::Entry &e : std::as_const(m_result.entries)) {
        auto *item = new QTreeWidgetItem(m_preview);
        item->setText(0, e.config.name);
        item->setCheckState(0, e.warning.contains(tr("skipped")) ? Qt::Unchecked : Qt::Checked);
        item->setText(1, e.config.kind == ServerConfig::Kind::Http ? tr("HTTP") : tr("stdio"));
        item->setText(2, ServerImport::describe(e.config));
        item->setToolTip(2, ServerImport::describe(e.config));
        item->setText(3, e.warning);
    }
    for (int c = 0; c < 3; ++c)
        m_preview->resizeColumnToContents(c);
    m_status->setText(tr("%n server(s) found in \"%1\".", nullptr, int(m_result.entries.size()))
                          .arg(m_result.entries.isEmpty() ? QString() : m_result.entries.first().source));
    m_import->setEnabled(!m_result.entries.isEmpty());
}

QList<ServerConfig> ImportDialog::selected() const
{
    QList<ServerConfig> out;
    for (int i = 0; i < m_preview->topLevelItemCount() && i < m_result.entries.size(); ++i) {
        if (m_preview->topLevelItem(i)->checkState(0) == Qt::Checked)
            out.append(m_result.entries.at(i).config);
    }
    return out;
}

} // namespace folio
