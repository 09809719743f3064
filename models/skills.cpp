#include "skills.h"

#include "frontmatter.h"
#include "invocation.h"
#include "mcpclient.h"
#include "resourcereads.h"

#include <QCryptographicHash>
#include <QJsonArray>

namespace folio {

QString SkillEntry::name() const
{
    const QString fromFrontmatter = frontmatter.value(QStringLiteral("name")).toString();
    if (!fromFrontmatter.isEmpty())
        return fromFrontmatter;
    QStringList segments = uri.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (segments.size() >= 2 && segments.constLast() == QLatin1String("SKILL.md"))
        return segments.at(segments.size() - 2);
    return uri;
}

QString SkillEntry::directory() const
{
    const QLatin1String file("/SKILL.md");
    return uri.endsWith(file) && uri.size() > file.size() ? uri.chopped(file.size()) : QString();
}

QString SkillEntry::description() const
{
    return frontmatter.value(QStringLiteral("description")).toString();
}

std::optional<SkillFile> SkillEntry::file(const QString &fileUri) const
{
    for (const SkillFile &f : files) {
        if (f.uri == fileUri)
            return f;
    }
    return std::nullopt;
}

std::optional<SkillEntry> SkillEntry::fromJson(const QJsonObject &entry, QString *problem)
{
    const QJsonValue uri = entry.value(QStringLiteral("uri"));
    if (!uri.isString() || uri.toString().isEmpty()) {
        if (problem)
            *problem = QStringLiteral("the skill entry has no uri string");
        return std::nullopt;
    }
    SkillEntry e;
    e.uri = uri.toString();
    e.frontmatter = entry.value(QStringLiteral("frontmatter")).toObject();
    e.raw = entry;
    const QJsonValue resources = entry.value(QStringLiteral("resources"));
    e.dynamic = resources == QLatin1String("dynamic");
    for (const QJsonValue &v : resources.toArray()) {
        const QJsonObject r = v.toObject();
        if (!r.value(QStringLiteral("uri")).isString())
            continue;
        SkillFile f;
        f.uri = r.value(QStringLiteral("uri")).toString();
        f.digest = r.value(QStringLiteral("digest")).toString();
        if (r.value(QStringLiteral("size")).isDouble() && r.value(QStringLiteral("size")).toDouble() >= 0)
            f.size = qint64(r.value(QStringLiteral("size")).toDouble());
        e.files.append(f);
    }
    return e;
}

QString SkillFileCheck::verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Waiting:
        return QStringLiteral("waiting");
    case Verdict::Verified:
        return QStringLiteral("verified");
    case Verdict::SizeMismatch:
        return QStringLiteral("size-mismatch");
    case Verdict::DigestMismatch:
        return QStringLiteral("digest-mismatch");
    case Verdict::FrontmatterMismatch:
        return QStringLiteral("frontmatter-mismatch");
    case Verdict::Unverifiable:
        return QStringLiteral("unverifiable");
    case Verdict::ReadFailed:
        return QStringLiteral("read-failed");
    case Verdict::NotRead:
        return QStringLiteral("not-read");
    }
    return {};
}

SkillLoad::SkillLoad(McpClient *client, const SkillEntry &entry, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_entry(entry)
{
    SkillFileCheck skillMd;
    skillMd.uri = entry.uri;
    m_files.append(skillMd);
    for (const SkillFile &f : entry.files) {
        if (f.uri == entry.uri)
            continue;
        SkillFileCheck c;
        c.uri = f.uri;
        m_files.append(c);
    }
}

SkillLoad::~SkillLoad() = default;

void SkillLoad::start()
{
    if (m_next == 0 && m_outcome == Outcome::Running)
        readNext();
}

QString SkillLoad::digestOf(const QByteArray &bytes)
{
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

SkillFileCheck SkillLoad::check(const SkillFile &listed, const QByteArray &bytes)
{
    SkillFileCheck c;
    c.uri = listed.uri;
    c.bytes = bytes.size();
    c.digest = digestOf(bytes);
    if (listed.size < 0 && listed.digest.isEmpty()) {
        c.verdict = SkillFileCheck::Verdict::Unverifiable;
        c.detail = QStringLiteral("the entry lists no size or digest for it");
        return c;
    }
    // A size that differs fails at once, whatever the digest would say.
    if (listed.size >= 0 && listed.size != bytes.size()) {
        c.verdict = SkillFileCheck::Verdict::SizeMismatch;
        c.detail = QStringLiteral("%1 bytes read, %2 listed").arg(bytes.size()).arg(listed.size);
        return c;
    }
    if (!listed.digest.isEmpty() && listed.digest.compare(c.digest, Qt::CaseInsensitive) != 0) {
        c.verdict = SkillFileCheck::Verdict::DigestMismatch;
        c.detail = QStringLiteral("its digest is %1, the entry lists %2").arg(c.digest, listed.digest);
        return c;
    }
    c.verdict = SkillFileCheck::Verdict::Verified;
    return c;
}

void SkillLoad::readNext()
{
    if (m_next >= m_files.size()) {
        bool anyFailed = false;
        for (const SkillFileCheck &c : std::as_const(m_files))
            anyFailed = anyFailed || c.failed();
        finish(anyFailed ? Outcome::Rejected : Outcome::Loaded, m_reason);
        return;
    }
    if (!m_client) {
        finish(Outcome::Rejected, QStringLiteral("not connected to the server"));
        return;
    }
    const int index = m_next++;
    Invocation *read = m_client->read(m_files.at(index).uri, this);
    connect(read, &Invocation::finished, this, [this, index, read] { handleRead(index, read); });
}

void SkillLoad::handleRead(int index, Invocation *invocation)
{
    invocation->deleteLater();
    if (m_outcome != Outcome::Running)
        return;
    SkillFileCheck &slot = m_files[index];
    const QString uri = slot.uri;
    auto failWith = [this, index](const SkillFileCheck &c, const QString &reason) {
        m_files[index] = c;
        if (m_reason.isEmpty())
            m_reason = reason;
    };
    QByteArray bytes;
    QString text;
    bool isText = false;
    if (invocation->isError()) {
        SkillFileCheck c;
        c.uri = uri;
        c.verdict = SkillFileCheck::Verdict::ReadFailed;
        c.detail = invocation->error().describe();
        failWith(c, QStringLiteral("%1 could not be read: %2").arg(uri, c.detail));
    } else {
        const QList<ReadContent> contents = ReadContent::fromResult(invocation->result());
        const auto it = std::find_if(contents.cbegin(), contents.cend(), [](const ReadContent &c) {
            return c.kind != ReadContent::Kind::Unknown;
        });
        if (it == contents.cend()) {
            SkillFileCheck c;
            c.uri = uri;
            c.verdict = SkillFileCheck::Verdict::ReadFailed;
            c.detail = QStringLiteral("resources/read answered no text or blob");
            failWith(c, QStringLiteral("%1: %2").arg(uri, c.detail));
        } else {
            isText = it->kind == ReadContent::Kind::Text;
            text = it->text;
            bytes = isText ? it->text.toUtf8() : it->data;
            SkillFile listed = m_entry.file(uri).value_or(SkillFile{uri, {}, -1});
            SkillFileCheck c = check(listed, bytes);
            if (index == 0 && !c.failed()) {
                // SKILL.md: its frontmatter must be the entry's, field by field.
                QString why;
                const std::optional<QJsonObject> parsed =
                    isText ? Frontmatter::parse(text, &why) : std::nullopt;
                if (!parsed) {
                    c.verdict = SkillFileCheck::Verdict::FrontmatterMismatch;
                    c.detail = isText ? why : QStringLiteral("SKILL.md is not text");
                } else if (const QStringList differ = Frontmatter::differences(*parsed, m_entry.frontmatter);
                           !differ.isEmpty()) {
                    c.verdict = SkillFileCheck::Verdict::FrontmatterMismatch;
                    c.detail = QStringLiteral("its frontmatter differs from the entry's in %1")
                                   .arg(differ.join(QStringLiteral(", ")));
                }
            }
            if (c.failed())
                failWith(c, QStringLiteral("%1: %2").arg(uri, c.detail));
            else {
                // Only checked content is kept (SEP-2640: never use unverified content).
                if (isText)
                    c.text = text;
                m_files[index] = c;
            }
        }
    }
    Q_EMIT changed();
    if (index == 0 && m_files.at(0).failed()) {
        // A SKILL.md that fails rejects the skill: nothing else of it is read.
        for (int i = 1; i < m_files.size(); ++i) {
            m_files[i].verdict = SkillFileCheck::Verdict::NotRead;
            m_files[i].detail = QStringLiteral("not read: SKILL.md failed its check");
        }
        finish(Outcome::Rejected, m_reason);
        return;
    }
    readNext();
}

void SkillLoad::finish(Outcome outcome, const QString &reason)
{
    if (m_outcome != Outcome::Running)
        return;
    m_outcome = outcome;
    m_reason = reason;
    Q_EMIT changed();
    Q_EMIT finished();
}

QJsonObject SkillLoad::toJson() const
{
    QJsonArray files;
    for (const SkillFileCheck &c : m_files) {
        QJsonObject f{{QStringLiteral("uri"), c.uri},
                      {QStringLiteral("verdict"), SkillFileCheck::verdictName(c.verdict)}};
        if (!c.detail.isEmpty())
            f.insert(QStringLiteral("detail"), c.detail);
        if (c.bytes >= 0)
            f.insert(QStringLiteral("bytes"), double(c.bytes));
        if (!c.digest.isEmpty())
            f.insert(QStringLiteral("digest"), c.digest);
        files.append(f);
    }
    static const char *outcomes[] = {"running", "loaded", "rejected"};
    QJsonObject o{{QStringLiteral("uri"), m_entry.uri},
                  {QStringLiteral("name"), m_entry.name()},
                  {QStringLiteral("outcome"), QString::fromLatin1(outcomes[int(m_outcome)])},
                  {QStringLiteral("files"), files}};
    if (!m_reason.isEmpty())
        o.insert(QStringLiteral("reason"), m_reason);
    return o;
}

} // namespace folio
