#pragma once

#include "authorizer.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QString>
#include <QUrl>

namespace folio {

// What every HTTP request to one server carries, whatever the transport.
struct HttpEndpoint
{
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QString bearerToken;
    // Signs in (OAuth) and renews the token: its token, when it has one, replaces bearerToken.
    QPointer<Authorizer> authorizer;
    int transferTimeoutMs = 0; // 0: none (long-lived streams)
};

} // namespace folio
