#include "httptransports.h"

#include "netlogging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibrary>

namespace folio::HttpTransports {

namespace {
Factory registeredFactory = nullptr;

// Loads the module once; a module that failed to load keeps its error (no retry per connection).
bool loadModule(QString *error)
{
    static bool tried = false;
    static QString failure;
    if (!tried) {
        tried = true;
        QStringList reasons;
        for (const QString &path : moduleCandidates()) {
            if (!QFileInfo::exists(path)) {
                reasons.append(QStringLiteral("%1: no such file").arg(path));
                continue;
            }
            QLibrary library(path);
            // Every symbol now: a module built for another executable fails here, with a reason,
            // rather than at its first call.
            library.setLoadHints(QLibrary::ResolveAllSymbolsHint);
            if (!library.load()) {
                reasons.append(library.errorString());
                continue;
            }
            // Loading runs the module's registration (the QLibrary handle is never unloaded).
            if (registeredFactory) {
                qCDebug(lcHttp).noquote() << "loaded the HTTP transports from" << library.fileName();
                break;
            }
            reasons.append(QStringLiteral("%1 does not provide the transports").arg(library.fileName()));
        }
        if (!registeredFactory) {
            failure = QStringLiteral("HTTP support is not available: the folio-http module could not be "
                                     "loaded (%1)")
                          .arg(reasons.join(QStringLiteral("; ")));
            qCInfo(lcHttp).noquote() << failure; // the connection that wanted them fails with it
        }
    }
    if (!registeredFactory && error)
        *error = failure;
    return registeredFactory != nullptr;
}
} // namespace

void registerFactory(Factory factory)
{
    registeredFactory = factory;
}

QStringList moduleCandidates()
{
    const QString dir = QCoreApplication::applicationDirPath();
    return {dir + QStringLiteral("/folio-http.so"),
            QDir::cleanPath(dir + QStringLiteral("/../lib/folio/folio-http.so"))};
}

bool load(QString *error)
{
    return registeredFactory || loadModule(error);
}

Transport *create(Kind kind, const HttpEndpoint &endpoint, QString *error)
{
    if (!load(error))
        return nullptr;
    return registeredFactory(kind, endpoint);
}

} // namespace folio::HttpTransports
