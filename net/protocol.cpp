#include "protocol.h"

namespace folio {

QStringList Revision::all()
{
    return {QStringLiteral("2026-07-28"), QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"),
            QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
}

QStringList Revision::legacy()
{
    QStringList l = all();
    l.removeFirst();
    return l;
}

bool Revision::isModern(const QString &revision)
{
    return revision == QLatin1String(Modern);
}

QString listMethod(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools:
        return QStringLiteral("tools/list");
    case ListKind::Prompts:
        return QStringLiteral("prompts/list");
    case ListKind::Resources:
        return QStringLiteral("resources/list");
    case ListKind::ResourceTemplates:
        return QStringLiteral("resources/templates/list");
    }
    return {};
}

QString listItemsKey(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools:
        return QStringLiteral("tools");
    case ListKind::Prompts:
        return QStringLiteral("prompts");
    case ListKind::Resources:
        return QStringLiteral("resources");
    case ListKind::ResourceTemplates:
        return QStringLiteral("resourceTemplates");
    }
    return {};
}

QString listName(ListKind kind)
{
    return kind == ListKind::ResourceTemplates ? QStringLiteral("templates") : listItemsKey(kind);
}

std::optional<ListKind> listKindFromName(const QString &name)
{
    for (ListKind k :
         {ListKind::Tools, ListKind::Prompts, ListKind::Resources, ListKind::ResourceTemplates}) {
        if (name == listName(k) || name == listMethod(k) || name == listItemsKey(k))
            return k;
    }
    return std::nullopt;
}

} // namespace folio
