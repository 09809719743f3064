#include "cursorcodec.h"

#include <QJsonDocument>

namespace demo {

QString CursorCodec::encode(const QJsonObject &fields)
{
    const QByteArray json = QJsonDocument(fields).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(json.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<QJsonObject> CursorCodec::decode(const QString &cursor)
{
    if (cursor.isEmpty())
        return std::nullopt;
    const auto decoded = QByteArray::fromBase64Encoding(
        cursor.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(*decoded, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

} // namespace demo
