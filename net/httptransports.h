#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace folio {

class Transport;

// What every HTTP request to one server carries, whatever the transport.
struct HttpEndpoint
{
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QString bearerToken;
    int transferTimeoutMs = 0; // 0: none (long-lived streams)
};

// The HTTP transports (Streamable HTTP, HTTP+SSE) are kept apart from the rest of net/: they need
// QtNetwork, and with it ten more libraries (Kerberos, libproxy, brotli, zstd, ...) whose loading
// and relocation cost every start ~1.5 ms, also the starts that only ever talk to stdio servers.
// Code linked with them (the folio_http objects: tests, tools) has them from the start; the
// application loads its "folio-http" module, which sits next to the executable, when the first
// HTTP server is opened.
namespace HttpTransports {

enum class Kind { Streamable, LegacySse };
using Factory = Transport *(*)(Kind kind, const HttpEndpoint &endpoint);

// Called by the transports' own code, when it is linked in or loaded.
void registerFactory(Factory factory);

// A new transport; nullptr with *error saying why when the module cannot be loaded.
Transport *create(Kind kind, const HttpEndpoint &endpoint, QString *error);

// Loads the module now unless the transports are there already; false with *error if it cannot.
// Not reentrant: one thread at a time, before create() is first called.
bool load(QString *error);

// Where create() looks for the module when no factory is registered.
QStringList moduleCandidates();

} // namespace HttpTransports

} // namespace folio
