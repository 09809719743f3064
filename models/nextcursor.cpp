#include "nextcursor.h"

#include "cachehints.h"

namespace folio {

NextCursor NextCursor::of(const QJsonValue &value, bool present)
{
    if (!present)
        return {};
    if (value.isNull())
        return {Presence::Null, {}, {}};
    if (value.isString())
        return string(value.toString());
    return {Presence::WrongType, {}, value};
}

NextCursor NextCursor::detached() const
{
    return {presence, text, detachedJson(raw)};
}

} // namespace folio
