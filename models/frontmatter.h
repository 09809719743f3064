#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace folio {

// The YAML frontmatter of a Markdown file (an Agent Skill's SKILL.md: "---\n<yaml>\n---"), read
// with libyaml (Debian's libyaml-0-2) and turned into JSON as YAML 1.2's core schema types it: a
// mapping is an object, a sequence an array, a plain scalar null, a boolean, a number or a string
// by its text, a quoted one a string. So it compares field by field with the frontmatter object a
// server lists beside it (SEP-2640). Bounded for a hostile file: at most maxBytes of YAML, nesting
// maxDepth, maxNodes values after aliases are expanded (an alias bomb stops there).
namespace Frontmatter {

inline constexpr int maxBytes = 64 * 1024;
inline constexpr int maxDepth = 32;
inline constexpr int maxNodes = 10000;

// The text between the leading "---" line and the next "---" line (a UTF-8 BOM and CRLF allowed);
// std::nullopt when the text does not begin with such a block.
std::optional<QString> block(const QString &markdown);
// The block parsed; std::nullopt when there is none, it is not a YAML mapping, or it breaks a
// bound; *error then says why.
std::optional<QJsonObject> parse(const QString &markdown, QString *error = nullptr);
// The fields where a and b differ (a field absent on one side counts as null), sorted; empty when
// they are the same in content.
QStringList differences(const QJsonObject &a, const QJsonObject &b);

} // namespace Frontmatter

} // namespace folio
