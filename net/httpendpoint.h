#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace folio {

// What every HTTP request to one server carries, whatever the transport.
struct HttpEndpoint
{
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QString bearerToken;
    int transferTimeoutMs = 0; // 0: none (long-lived streams)
};

} // namespace folio
