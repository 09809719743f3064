#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <optional>

namespace folio {

class Invocation;
class McpClient;

// One file of a skill as a server lists it (SEP-2640, io.modelcontextprotocol/skills): where it
// is, and the digest ("sha256:<hex>") and size (bytes) its content must have.
struct SkillFile
{
    QString uri;
    QString digest;   // as listed; empty when absent
    qint64 size = -1; // -1 when absent
};

// One entry of skills/list (or skills/get's skill), as received: its SKILL.md's uri, the
// frontmatter the server says that file has, and its files (resources: "dynamic" when the server
// does not list them).
struct SkillEntry
{
    QString uri;
    QJsonObject frontmatter;
    QList<SkillFile> files;
    bool dynamic = false;
    QJsonObject raw;

    // The frontmatter's name, else the path segment before /SKILL.md.
    QString name() const;
    QString description() const;
    // The skill's folder, for resources/directory/read: its uri without "/SKILL.md"
    // ("skill://x/triage-posts"); empty when its uri names no SKILL.md.
    QString directory() const;
    // The listed file for uri (SKILL.md included); std::nullopt when it is not listed.
    std::optional<SkillFile> file(const QString &uri) const;
    // std::nullopt when the entry has no uri string (*problem says so).
    static std::optional<SkillEntry> fromJson(const QJsonObject &entry, QString *problem = nullptr);
};

// What one file's read came to.
struct SkillFileCheck
{
    enum class Verdict {
        Waiting,             // not read yet
        Verified,            // size and digest as listed (and, for SKILL.md, the frontmatter)
        SizeMismatch,        // the bytes read are not the listed size
        DigestMismatch,      // their sha256 is not the listed digest
        FrontmatterMismatch, // SKILL.md's frontmatter is not the entry's (or has none)
        Unverifiable,        // nothing listed to check it against (resources: "dynamic")
        ReadFailed,          // resources/read failed, or answered no content
        NotRead,             // left unread: the skill was rejected before it
    };
    QString uri;
    Verdict verdict = Verdict::Waiting;
    QString detail;    // why, as a person reads it
    qint64 bytes = -1; // what was read
    QString digest;    // "sha256:<hex>" of what was read
    QString text;      // a verified text file's content (nothing unverified is kept)

    static QString verdictName(Verdict verdict); // "verified", "digest-mismatch", …
    bool failed() const
    {
        return verdict == Verdict::SizeMismatch || verdict == Verdict::DigestMismatch ||
               verdict == Verdict::FrontmatterMismatch || verdict == Verdict::ReadFailed;
    }
};

// Loading one skill as SEP-2640 asks a host to: its files are read only now (never on listing),
// SKILL.md first; each read is checked against the entry before anything of it is used — its size,
// then its sha256 digest, and for SKILL.md its YAML frontmatter field by field against the entry's.
// A SKILL.md that fails rejects the skill and no other file is read; a supporting file that fails
// is rejected on its own and the skill with it.
class SkillLoad : public QObject
{
    Q_OBJECT
public:
    enum class Outcome { Running, Loaded, Rejected };

    SkillLoad(McpClient *client, const SkillEntry &entry, QObject *parent = nullptr);
    ~SkillLoad() override;

    void start();
    const SkillEntry &entry() const { return m_entry; }
    Outcome outcome() const { return m_outcome; }
    // Why it was rejected (the first file that failed, and how); empty otherwise.
    QString reason() const { return m_reason; }
    const QList<SkillFileCheck> &files() const { return m_files; }
    // {uri, name, outcome, reason, files: [{uri, verdict, detail, bytes, digest}]}
    QJsonObject toJson() const;

    // The check of bytes read for listed: size first, then digest.
    static SkillFileCheck check(const SkillFile &listed, const QByteArray &bytes);
    static QString digestOf(const QByteArray &bytes); // "sha256:<hex>"

Q_SIGNALS:
    void changed();
    void finished();

private:
    void readNext();
    void handleRead(int index, Invocation *invocation);
    void finish(Outcome outcome, const QString &reason);

    QPointer<McpClient> m_client;
    SkillEntry m_entry;
    QList<SkillFileCheck> m_files; // SKILL.md first
    int m_next = 0;
    Outcome m_outcome = Outcome::Running;
    QString m_reason;
};

} // namespace folio
