#include "serverdialog.h"

#include "secretmask.h"
#include "statuscolors.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace folio {

namespace {
constexpr int MaxShownMiB = 65536;

// A size limit as its spin box shows it: whole MiB, within the range.
int shownMiB(qint64 bytes)
{
    return int(qBound(qint64(1), bytes / (1024 * 1024), qint64(MaxShownMiB)));
}

// What a size limit's spin box says: the value loaded when it was not edited (a limit set in the
// file need not be whole MiB), else its MiB.
qint64 editedBytes(const QSpinBox *box, qint64 loaded)
{
    return box->value() == shownMiB(loaded) ? loaded : qint64(box->value()) * 1024 * 1024;
}
} // namespace

ServerDialog::ServerDialog(QWidget *parent)
    : QDialog(parent)
    , m_name(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_command(new QLineEdit(this))
    , m_arguments(new QLineEdit(this))
    , m_environment(new QPlainTextEdit(this))
    , m_workingDirectory(new QLineEdit(this))
    , m_roots(new QPlainTextEdit(this))
    , m_url(new QLineEdit(this))
    , m_httpMode(new QComboBox(this))
    , m_headers(new QPlainTextEdit(this))
    , m_token(new QLineEdit(this))
    , m_tokenNote(new QLabel(this))
    , m_envNote(new QLabel(this))
    , m_revision(new QComboBox(this))
    , m_timeout(new QSpinBox(this))
    , m_maxMessage(new QSpinBox(this))
    , m_maxWalk(new QSpinBox(this))
    , m_problem(new QLabel(this))
{
    setWindowTitle(tr("Server"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(tr("(what the server calls itself, once connected)"));
    m_command->setObjectName(QStringLiteral("command"));
    m_arguments->setObjectName(QStringLiteral("arguments"));
    m_kind->setObjectName(QStringLiteral("kind"));
    m_url->setObjectName(QStringLiteral("url"));
    m_problem->setObjectName(QStringLiteral("problem"));
    m_kind->addItems({tr("stdio (a local process)"), tr("HTTP")});

    auto *stdioPage = new QWidget;
    auto *stdioForm = new QFormLayout(stdioPage);
    auto *commandRow = new QHBoxLayout;
    auto *browse = new QPushButton(tr("Browse…"));
    commandRow->addWidget(m_command, 1);
    commandRow->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Server program"));
        if (!file.isEmpty())
            m_command->setText(file);
    });
    m_command->setPlaceholderText(tr("npx (or paste a whole command line)"));
    m_command->setToolTip(tr("The program to start. A whole command line pasted here is split: the "
                             "program stays, its arguments go to Arguments."));
    // Pasted (more than one character at once) or left: split a whole command line. Not while
    // typing, where "npx -" is half a word.
    connect(m_command, &QLineEdit::textEdited, this, [this](const QString &text) {
        if (text.size() - m_commandLength > 1)
            splitCommandLine();
        m_commandLength = int(m_command->text().size());
    });
    connect(m_command, &QLineEdit::editingFinished, this, &ServerDialog::splitCommandLine);
    m_arguments->setPlaceholderText(QStringLiteral("-y @modelcontextprotocol/server-everything stdio"));
    m_environment->setObjectName(QStringLiteral("environment"));
    m_environment->setPlaceholderText(tr("One NAME=value per line"));
    m_environment->setToolTip(tr("The value of a variable with TOKEN, KEY, SECRET or PASSWORD in its name is "
                                 "saved in the system keychain, never in Folio's settings, and shown "
                                 "here masked. A line left as shown keeps its value."));
    m_environment->setMaximumHeight(80);
    // Long keychain reasons wrap; the note is there only while there are secret values to place.
    m_envNote->setObjectName(QStringLiteral("envNote"));
    m_envNote->setWordWrap(true);
    m_envNote->setTextFormat(Qt::PlainText);
    m_envNote->setVisible(false);
    m_workingDirectory->setPlaceholderText(tr("(Folio's own)"));
    stdioForm->addRow(tr("Command"), commandRow);
    stdioForm->addRow(tr("Arguments"), m_arguments);
    stdioForm->addRow(tr("Environment"), m_environment);
    stdioForm->addRow(QString(), m_envNote);
    stdioForm->addRow(tr("Working directory"), m_workingDirectory);

    auto *httpPage = new QWidget;
    auto *httpForm = new QFormLayout(httpPage);
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:3001/mcp"));
    m_httpMode->addItems({tr("Automatic (Streamable HTTP, then HTTP+SSE)"), tr("Streamable HTTP"),
                          tr("HTTP+SSE (2024-11-05)")});
    m_headers->setPlaceholderText(tr("One Name: value per line"));
    m_headers->setMaximumHeight(80);
    m_token->setObjectName(QStringLiteral("token"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("Kept in the system keychain"));
    connect(m_token, &QLineEdit::textEdited, this, [this] {
        m_tokenEdited = true;
        updateTokenNote();
    });
    m_tokenNote->setObjectName(QStringLiteral("tokenNote"));
    m_tokenNote->setWordWrap(true); // the keychain's reason can be long
    m_tokenNote->setTextFormat(Qt::PlainText);
    httpForm->addRow(tr("URL"), m_url);
    httpForm->addRow(tr("Transport"), m_httpMode);
    httpForm->addRow(tr("Headers"), m_headers);
    httpForm->addRow(tr("Bearer token"), m_token);
    httpForm->addRow(QString(), m_tokenNote);

    m_pages->addWidget(stdioPage);
    m_pages->addWidget(httpPage);

    m_revision->addItem(tr("Negotiate (newest first)"), QString());
    for (const QString &r : Revision::all())
        m_revision->addItem(r, r);
    m_timeout->setRange(1000, 600000);
    m_timeout->setSingleStep(1000);
    m_timeout->setSuffix(tr(" ms"));
    m_timeout->setValue(30000);
    m_maxMessage->setRange(1, MaxShownMiB);
    m_maxMessage->setSuffix(tr(" MiB"));
    m_maxMessage->setValue(shownMiB(m_loadedMaxMessageBytes));
    m_maxMessage->setToolTip(tr("The largest message read from the server. A larger one fails its "
                                "request, and Folio stops reading it."));
    m_maxWalk->setObjectName(QStringLiteral("maxWalk"));
    m_maxWalk->setRange(1, MaxShownMiB);
    m_maxWalk->setSuffix(tr(" MiB"));
    m_maxWalk->setValue(shownMiB(m_loadedMaxWalkBytes));
    m_maxWalk->setToolTip(tr("The most one walk of a list keeps, its items and cursors. The walk stops "
                             "there, with the finding walk-size-cap-reached."));

    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Kind"), m_kind);
    auto *more = new QFormLayout;
    m_roots->setPlaceholderText(tr("One folder or file:// URI per line"));
    m_roots->setMaximumHeight(64);
    m_roots->setToolTip(tr("What Folio answers when the server asks for the client's roots "
                           "(roots/list). Folders are sent as file:// URIs."));
    more->addRow(tr("Roots"), m_roots);
    more->addRow(tr("Protocol revision"), m_revision);
    more->addRow(tr("Request timeout"), m_timeout);
    more->addRow(tr("Message size limit"), m_maxMessage);
    more->addRow(tr("Walk size limit"), m_maxWalk);

    // One line always laid out, so that the dialog keeps its size while a problem comes and goes.
    m_problem->setWordWrap(false);
    m_problem->setMinimumHeight(m_problem->fontMetrics().height());
    m_problem->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    applyColors();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_pages);
    layout->addLayout(more);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ServerDialog::updateKind);
    for (QLineEdit *e : {m_name, m_command, m_url})
        connect(e, &QLineEdit::textChanged, this, &ServerDialog::validate);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ServerDialog::validate);
    m_saveButton = buttons->button(QDialogButtonBox::Save);
    updateKind();
    validate();
    updateTokenNote();
    resize(560, sizeHint().height());
}

ServerDialog::~ServerDialog()
{
    // Closing moves the focus: the command field's editingFinished() (and its neighbours' signals)
    // would reach this dialog's slots while QDialog's destructor runs, on a ServerDialog that is no
    // longer one (UBSan: "downcast ... which does not point to an object of type ServerDialog").
    const QList<QObject *> children = findChildren<QObject *>();
    for (QObject *child : children)
        child->disconnect(this);
}

QString ServerDialog::keychainMark()
{
    return tr("(in the keychain)");
}

void ServerDialog::updateTokenNote()
{
    QString note;
    if (m_tokenEdited && !m_token->text().isEmpty())
        note = tr("Saved in the system keychain when you save.");
    else if (m_tokenEdited && (m_hadToken || !m_heldToken.isEmpty()))
        note = tr("No token: the one it had is forgotten when you save.");
    else if (!m_heldToken.isEmpty() && !m_keychainRefusal.isEmpty())
        note = tr("Kept for this session only (%1): the keychain refused it, Save tries again. %2")
                   .arg(SecretMask::abbreviate(m_heldToken), m_keychainRefusal);
    else if (!m_heldToken.isEmpty())
        note = tr("Kept for this session only (%1), not in the keychain.")
                   .arg(SecretMask::abbreviate(m_heldToken));
    else if (m_hadToken)
        note = tr("Saved in the system keychain.");
    else
        note = tr("No token saved.");
    m_tokenNote->setText(note);
    m_tokenNote->setToolTip(note);
    fitHeight();
}

void ServerDialog::fitHeight()
{
    // A top-level window does not grow by itself for wrapped text: a long keychain reason would be
    // cut off. Taller, never narrower, and only when the text needs it.
    if (!layout())
        return;
    layout()->activate();
    const int needed = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width())
                                                     : layout()->totalSizeHint().height();
    if (needed > height())
        resize(width(), needed);
}

void ServerDialog::updateKind()
{
    m_pages->setCurrentIndex(m_kind->currentIndex());
}

void ServerDialog::validate()
{
    QString problem;
    if (m_kind->currentIndex() == ProcessKind && m_command->text().trimmed().isEmpty())
        problem = tr("Say which program to start.");
    else if (m_kind->currentIndex() == RemoteKind) {
        const QUrl url(m_url->text().trimmed());
        if (!url.isValid() ||
            (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            problem = tr("Enter an http:// or https:// URL.");
    }
    m_problem->setText(problem);
    m_problem->setToolTip(problem);
    m_saveButton->setEnabled(problem.isEmpty());
}

void ServerDialog::applyColors()
{
    // The problem in the palette's own failure colour, readable on light and dark alike.
    QPalette p = m_problem->palette();
    p.setColor(QPalette::WindowText, StatusColors(palette()).failed());
    m_problem->setPalette(p);
}

void ServerDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

void ServerDialog::splitCommandLine()
{
    const QString text = m_command->text().trimmed();
    // A program whose path has a space in it is a program, not a command line.
    if (text.isEmpty() || QFileInfo::exists(text))
        return;
    const QStringList words = QProcess::splitCommand(text);
    if (words.size() < 2 && !(words.size() == 1 && words.first() != text))
        return;
    m_command->setText(words.first());
    m_commandLength = int(m_command->text().size());
    const QStringList rest = words.mid(1) + QProcess::splitCommand(m_arguments->text());
    m_arguments->setText(joinArguments(rest));
}

QString ServerDialog::joinArguments(const QStringList &arguments)
{
    QStringList quoted;
    for (const QString &a : arguments) {
        const bool plain = !a.isEmpty() && !a.contains(QLatin1Char(' ')) && !a.contains(QLatin1Char('\t')) &&
                           !a.contains(QLatin1Char('"'));
        quoted << (plain ? a
                         : QLatin1Char('"') + QString(a).replace(QLatin1Char('"'), QStringLiteral("\"\"\"")) +
                               QLatin1Char('"'));
    }
    return quoted.join(QLatin1Char(' '));
}

void ServerDialog::setConfig(const ServerConfig &c)
{
    // A server named by what it says it is shows an empty Name: typing one names it for good.
    m_name->setText(c.nameFromServer ? QString() : c.name);
    m_kind->setCurrentIndex(c.hasUrl() ? RemoteKind : ProcessKind);
    m_command->setText(c.command);
    m_commandLength = int(c.command.size());
    m_arguments->setText(joinArguments(c.arguments));
    // A secret's line shows where it is, never its value: masked when held, a mark when saved.
    m_shownSecrets.clear();
    m_heldValues.clear();
    QMap<QString, QString> lines;
    QStringList held;
    for (auto it = c.environment.cbegin(); it != c.environment.cend(); ++it) {
        if (c.envHeld.contains(it.key())) {
            m_shownSecrets.insert(it.key(), SecretMask::abbreviate(it.value()));
            m_heldValues.insert(it.key(), it.value());
            held << it.key();
        } else if (c.envInKeychain.contains(it.key())) {
            m_shownSecrets.insert(it.key(), keychainMark()); // filled in for a connect: still saved
        }
        lines.insert(it.key(), m_shownSecrets.value(it.key(), it.value()));
    }
    for (const QString &name : c.envInKeychain) {
        m_shownSecrets.insert(name, keychainMark());
        lines.insert(name, keychainMark());
    }
    QStringList env;
    for (auto it = lines.cbegin(); it != lines.cend(); ++it)
        env << it.key() + QLatin1Char('=') + it.value();
    m_environment->setPlainText(env.join(QLatin1Char('\n')));
    QStringList envNotes;
    if (!c.envInKeychain.isEmpty())
        envNotes << tr("In the system keychain: %1.").arg(c.envInKeychain.join(QStringLiteral(", ")));
    if (!held.isEmpty())
        envNotes << (c.keychainRefusal.isEmpty()
                         ? tr("Kept for this session only, not in the keychain: %1.")
                               .arg(held.join(QStringLiteral(", ")))
                         : tr("Kept for this session only: %1. The keychain refused %2: %3")
                               .arg(held.join(QStringLiteral(", ")), held.size() == 1 ? tr("it") : tr("them"),
                                    c.keychainRefusal));
    m_envNote->setText(envNotes.join(QLatin1Char(' ')));
    m_envNote->setToolTip(m_envNote->text());
    m_envNote->setVisible(!envNotes.isEmpty());
    m_workingDirectory->setText(c.workingDirectory);
    m_roots->setPlainText(c.roots.join(QLatin1Char('\n')));
    m_url->setText(c.url.toString());
    m_httpMode->setCurrentIndex(int(c.httpMode));
    QStringList headers;
    for (const auto &[k, v] : c.headers)
        headers << QString::fromLatin1(k) + QStringLiteral(": ") + QString::fromLatin1(v);
    m_headers->setPlainText(headers.join(QLatin1Char('\n')));
    m_hadToken = c.takesBearerToken() && c.tokenInKeychain;
    m_heldToken = c.takesBearerToken() && c.tokenHeld() ? c.bearerToken : QString();
    m_keychainRefusal = c.keychainRefusal;
    m_tokenEdited = false;
    m_token->clear();
    m_token->setPlaceholderText(m_hadToken ? tr("A token is saved in the keychain (type to replace it)")
                                : !m_heldToken.isEmpty()
                                    ? tr("A token is kept for this session only (type to replace it)")
                                    : tr("Kept in the system keychain"));
    updateTokenNote();
    m_revision->setCurrentIndex(qMax(0, m_revision->findData(c.pinnedRevision)));
    m_timeout->setValue(c.requestTimeoutMs);
    m_loadedMaxMessageBytes = c.maxMessageBytes;
    m_maxMessage->setValue(shownMiB(c.maxMessageBytes));
    m_loadedMaxWalkBytes = c.maxWalkBytes;
    m_maxWalk->setValue(shownMiB(c.maxWalkBytes));
    validate();
}

ServerConfig ServerDialog::config() const
{
    // Both kinds' fields are read, as before: the kind chosen says which of them are used.
    ServerConfig c =
        m_kind->currentIndex() == RemoteKind ? ServerConfig::remote({}) : ServerConfig::process({});
    c.name = m_name->text().trimmed();
    c.command = m_command->text().trimmed();
    c.arguments = QProcess::splitCommand(m_arguments->text());
    if (!c.command.isEmpty() && !QFileInfo::exists(c.command)) {
        const QStringList words = QProcess::splitCommand(c.command); // as splitCommandLine() would
        if (!words.isEmpty()) {
            c.command = words.first();
            c.arguments = words.mid(1) + c.arguments;
        }
    }
    for (const QString &line : m_environment->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0)
            continue;
        const QString name = line.left(eq).trimmed();
        const QString value = line.mid(eq + 1);
        const auto shown = m_shownSecrets.constFind(name);
        if (shown == m_shownSecrets.cend() || *shown != value) {
            c.environment.insert(name, value); // new: ServerListModel decides whether it is a secret
        } else if (m_heldValues.contains(name)) {
            c.environment.insert(name, m_heldValues.value(name));
            c.envHeld.append(name);
        } else {
            c.envInKeychain.append(name);
        }
    }
    c.workingDirectory = m_workingDirectory->text().trimmed();
    for (const QString &line : m_roots->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString root = line.trimmed();
        if (root.isEmpty())
            continue;
        // A folder typed as a path is sent as the file:// URI the spec asks for.
        const bool uri = root.contains(QStringLiteral("://"));
        c.roots.append(uri ? root : QUrl::fromLocalFile(QDir::cleanPath(root)).toString());
    }
    c.url = QUrl(m_url->text().trimmed());
    c.httpMode = ServerConfig::HttpMode(m_httpMode->currentIndex());
    for (const QString &line : m_headers->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon > 0)
            c.headers.append(
                {line.left(colon).trimmed().toLatin1(), line.mid(colon + 1).trimmed().toLatin1()});
    }
    if (c.takesBearerToken()) {
        c.bearerToken = m_tokenEdited ? m_token->text() : m_heldToken;
        c.tokenInKeychain = !m_tokenEdited && m_hadToken;
    }
    c.pinnedRevision = m_revision->currentData().toString();
    if (c.name.isEmpty()) {
        c.nameFromServer = true;
        c.name = c.fallbackName(); // the caller makes it unique among the saved ones
    }
    c.requestTimeoutMs = m_timeout->value();
    c.maxMessageBytes = editedBytes(m_maxMessage, m_loadedMaxMessageBytes);
    c.maxWalkBytes = editedBytes(m_maxWalk, m_loadedMaxWalkBytes);
    return c;
}

QString ServerDialog::token() const
{
    return m_token->text();
}

} // namespace folio
