#include "skillview.h"

#include "fonts.h"
#include "ownwindow.h"
#include "serversession.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {

enum Column { FileColumn, SizeColumn, DigestColumn, VerdictColumn };

QString verdictText(const SkillFileCheck &c)
{
    switch (c.verdict) {
    case SkillFileCheck::Verdict::Waiting:
        return QObject::tr("not read");
    case SkillFileCheck::Verdict::Verified:
        return QObject::tr("verified");
    case SkillFileCheck::Verdict::SizeMismatch:
        return QObject::tr("size differs");
    case SkillFileCheck::Verdict::DigestMismatch:
        return QObject::tr("digest differs");
    case SkillFileCheck::Verdict::FrontmatterMismatch:
        return QObject::tr("frontmatter differs");
    case SkillFileCheck::Verdict::Unverifiable:
        return QObject::tr("nothing to check it against");
    case SkillFileCheck::Verdict::ReadFailed:
        return QObject::tr("read failed");
    case SkillFileCheck::Verdict::NotRead:
        return QObject::tr("not read (rejected before it)");
    }
    return {};
}

// A frontmatter value on one line: text as it is, anything else as compact JSON.
QString valueText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return v.toVariant().toString();
}

} // namespace

SkillView::SkillView(ServerSession *session, const SkillEntry &entry, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_entry(entry)
    , m_description(new WrapLabel(this))
    , m_frontmatter(new WrapLabel(this))
    , m_files(new QTreeWidget(this))
    , m_loadButton(new QPushButton(tr("Load"), this))
    , m_folderButton(new QPushButton(tr("Open Folder"), this))
    , m_outcome(new WrapLabel(this))
    , m_text(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("skillView"));
    auto *name = new QLabel(oneLineSafe(entry.name()), this);
    name->setObjectName(QStringLiteral("skillName"));
    name->setTextFormat(Qt::PlainText);
    name->setFont(titleFont(font()));
    auto *uri = new QLabel(oneLineSafe(entry.uri), this);
    uri->setObjectName(QStringLiteral("skillUri"));
    uri->setTextFormat(Qt::PlainText);
    uri->setForegroundRole(QPalette::PlaceholderText);
    uri->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_description->setObjectName(QStringLiteral("skillDescription"));
    m_description->setTextFormat(Qt::PlainText);
    m_description->setText(terminalSafe(entry.description()));
    m_description->setVisible(!entry.description().isEmpty());

    // The frontmatter as the server lists it, one field a line.
    QStringList fields;
    for (auto it = entry.frontmatter.begin(); it != entry.frontmatter.end(); ++it) {
        if (it.key() == QLatin1String("name") || it.key() == QLatin1String("description"))
            continue;
        fields << QStringLiteral("%1: %2").arg(oneLineSafe(it.key()),
                                               oneLineSafe(elide(valueText(it.value()), 200)));
    }
    m_frontmatter->setObjectName(QStringLiteral("skillFrontmatter"));
    m_frontmatter->setTextFormat(Qt::PlainText);
    m_frontmatter->setText(fields.join(QLatin1Char('\n')));
    m_frontmatter->setVisible(!fields.isEmpty());

    m_files->setObjectName(QStringLiteral("skillFiles"));
    m_files->setAccessibleName(tr("Skill files"));
    m_files->setRootIsDecorated(false);
    m_files->setUniformRowHeights(true);
    m_files->setHeaderLabels({tr("File"), tr("Size"), tr("Digest"), tr("Check")});
    m_files->header()->setSectionResizeMode(FileColumn, QHeaderView::Stretch);
    m_files->header()->setStretchLastSection(false);
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    m_files->header()->resizeSection(SizeColumn, em * 6);
    m_files->header()->resizeSection(DigestColumn, em * 12);
    m_files->header()->resizeSection(VerdictColumn, em * 14);

    m_loadButton->setObjectName(QStringLiteral("skillLoad"));
    m_loadButton->setToolTip(tr("Read the skill's files now and check each against its entry (Ctrl+Return)"));
    m_loadButton->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_loadButton->setDefault(true);
    m_folderButton->setObjectName(QStringLiteral("skillFolder"));
    m_folderButton->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_folderButton->setAutoDefault(false);
    const QString directory = entry.directory();
    const QString unavailable = !m_session ? tr("The server is gone")
                                : directory.isEmpty()
                                    ? tr("The skill's uri names no SKILL.md, so it has no folder to read")
                                    : m_session->cannotOpen(ListSource::directory(directory));
    m_folderButton->setEnabled(unavailable.isEmpty());
    m_folderButton->setToolTip(
        unavailable.isEmpty()
            ? tr("List what is in %1 in the server's window, page by page (resources/directory/read, Ctrl+B)")
                  .arg(elide(directory, 80).toHtmlEscaped())
            : oneLineSafe(unavailable).toHtmlEscaped());
    m_outcome->setObjectName(QStringLiteral("skillOutcome"));
    m_outcome->setTextFormat(Qt::PlainText);
    m_outcome->setText(tr("Nothing of this skill is read until you load it."));
    m_text->setObjectName(QStringLiteral("skillText"));
    m_text->setAccessibleName(tr("SKILL.md"));
    m_text->setReadOnly(true);
    m_text->setFont(fixedFont());
    m_text->setPlaceholderText(tr("SKILL.md shows here once it is read and matches its entry."));

    auto *loadRow = new QHBoxLayout;
    loadRow->addWidget(m_outcome, 1);
    loadRow->addWidget(m_folderButton, 0, Qt::AlignTop);
    loadRow->addWidget(m_loadButton, 0, Qt::AlignTop);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_files, 1);
    topLayout->addLayout(loadRow);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_text);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(name);
    layout->addWidget(uri);
    layout->addWidget(m_description);
    layout->addWidget(m_frontmatter);
    layout->addWidget(split, 1);

    connect(m_loadButton, &QPushButton::clicked, this, &SkillView::startLoad);
    connect(m_folderButton, &QPushButton::clicked, this, &SkillView::openFolder);
    addCloseKeys(this);
    updateFiles();
}

void SkillView::showAsWindow(QSize size)
{
    showAsOwnWindow(this, tr("Skill %1").arg(oneLineSafe(m_entry.name())), size);
}

void SkillView::startLoad()
{
    if (!m_session || (m_load && m_load->outcome() == SkillLoad::Outcome::Running))
        return;
    delete m_load;
    m_text->clear();
    m_load = new SkillLoad(m_session->client(), m_entry, this);
    connect(m_load, &SkillLoad::changed, this, &SkillView::updateFiles);
    connect(m_load, &SkillLoad::finished, this, [this] {
        Q_EMIT statusMessage(
            m_load->outcome() == SkillLoad::Outcome::Loaded
                ? tr("Skill %1 loaded: every file matches its entry").arg(oneLineSafe(m_entry.name()))
                : tr("Skill %1 rejected").arg(oneLineSafe(m_entry.name())));
    });
    m_load->start();
    updateFiles();
}

void SkillView::openFolder()
{
    if (!m_session || m_entry.directory().isEmpty())
        return;
    QString why;
    const QString id = m_session->openList(ListSource::directory(m_entry.directory()), &why);
    Q_EMIT statusMessage(
        id.isEmpty()
            ? tr("The folder of %1 cannot be read: %2").arg(oneLineSafe(m_entry.name()), oneLineSafe(why))
            : tr("The folder of %1 is open in the server's window").arg(oneLineSafe(m_entry.name())));
}

void SkillView::updateFiles()
{
    const StatusColors colors(palette());
    m_files->clear();
    QList<SkillFileCheck> checks;
    if (m_load) {
        checks = m_load->files();
    } else {
        SkillFileCheck skillMd;
        skillMd.uri = m_entry.uri;
        checks << skillMd;
        for (const SkillFile &f : m_entry.files) {
            if (f.uri == m_entry.uri)
                continue;
            SkillFileCheck c;
            c.uri = f.uri;
            checks << c;
        }
    }
    for (const SkillFileCheck &c : std::as_const(checks)) {
        const SkillFile listed = m_entry.file(c.uri).value_or(SkillFile{c.uri, {}, -1});
        auto *item = new QTreeWidgetItem(m_files);
        item->setText(FileColumn, oneLineSafe(c.uri));
        item->setText(SizeColumn, listed.size >= 0 ? QString::number(listed.size) : tr("—"));
        item->setText(DigestColumn, oneLineSafe(elide(listed.digest, 24)));
        item->setToolTip(DigestColumn, oneLineSafe(listed.digest) +
                                           (c.digest.isEmpty() ? QString() : tr("\nread: %1").arg(c.digest)));
        item->setText(VerdictColumn, verdictText(c));
        item->setToolTip(VerdictColumn, terminalSafe(c.detail));
        if (c.failed())
            item->setForeground(VerdictColumn, colors.failed());
        else if (c.verdict == SkillFileCheck::Verdict::Verified)
            item->setForeground(VerdictColumn, colors.fresh());
    }
    if (!m_load) {
        m_loadButton->setEnabled(m_session != nullptr);
        return;
    }
    const bool running = m_load->outcome() == SkillLoad::Outcome::Running;
    m_loadButton->setEnabled(!running);
    m_loadButton->setText(running ? tr("Loading…") : tr("Load Again"));
    QPalette p = m_outcome->palette();
    switch (m_load->outcome()) {
    case SkillLoad::Outcome::Running:
        m_outcome->setText(tr("Reading and checking its files…"));
        p.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
        break;
    case SkillLoad::Outcome::Loaded:
        m_outcome->setText(tr("Loaded: every file matches its entry's size and digest, and SKILL.md's "
                              "frontmatter matches the entry's."));
        p.setColor(QPalette::WindowText, colors.fresh());
        break;
    case SkillLoad::Outcome::Rejected:
        m_outcome->setText(tr("Rejected, not used: %1").arg(terminalSafe(m_load->reason())));
        p.setColor(QPalette::WindowText, colors.failed());
        break;
    }
    m_outcome->setPalette(p);
    // Only verified text is shown.
    if (!m_load->files().isEmpty() &&
        m_load->files().constFirst().verdict == SkillFileCheck::Verdict::Verified)
        m_text->setPlainText(terminalSafe(m_load->files().constFirst().text));
}

void SkillView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateFiles();
}

} // namespace folio
