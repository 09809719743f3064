#pragma once

#include "answer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace demo {

// The skills extension (io.modelcontextprotocol/skills, SEP-2640) of the 2026-07-28 era: a few
// Agent Skills about the chat, each a directory of files under skill://folio-chat/ with a SKILL.md
// at its root. skills/list (paged, pageSize entries a page) and skills/get answer skill entries
// {uri, frontmatter, resources: [{uri, digest, size}]}; resources/read serves every file;
// resources/directory/read lists a directory's direct children (directoryRead: true).
// Tampered (the skills-tampered scenario): three entries do not tell the truth about their files.
class Skills
{
public:
    static QString extensionId();
    // What server/discover declares under capabilities.extensions[extensionId()].
    static QJsonObject settings();
    static constexpr int pageSize = 2;          // skills/list entries a page
    static constexpr int directoryPageSize = 2; // resources/directory/read children a page
    static constexpr int ttlMs = 300000;

    explicit Skills(bool tampered);

    // skills/list, skills/get, resources/directory/read; nullopt for any other method.
    std::optional<Answer> handle(const QString &method, const QJsonObject &params) const;
    // resources/read of a skill file; nullopt when no skill has that file.
    std::optional<QJsonObject> read(const QString &uri, bool modern) const;
    // The SKILL.md files as resources/list items (compact JSON), for the scenarios that list them.
    QList<QByteArray> listedManifests() const;

private:
    struct File
    {
        QString uri;
        QString mimeType;
        QByteArray bytes; // what resources/read serves
    };
    struct Skill
    {
        QString uri;       // skill://<skill-path>/SKILL.md
        QList<File> files; // SKILL.md first
        QJsonObject entry; // what skills/list and skills/get say about it
    };

    Answer list(const QJsonObject &params) const;
    Answer get(const QJsonObject &params) const;
    Answer readDirectory(const QJsonObject &params) const;
    const File *file(const QString &uri) const;

    QList<Skill> m_skills;
};

} // namespace demo
