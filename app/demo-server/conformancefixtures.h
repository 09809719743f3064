#pragma once

#include "answer.h"
#include "inputrequests.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace demo {

// The tools, prompts and resources the official conformance harness's server scenarios call by
// name (tools-call-*, prompts-get-*, resources-read-*, input-required-result-*). Served only by the
// conformance scenario (Catalog::addConformanceFixtures lists them), so that the demo's own content
// stays about the chat. The answers follow what the harness's scenarios check, see
// docs/demo-server.md (Conformance).
class ConformanceFixtures
{
public:
    explicit ConformanceFixtures(const InputRequests &inputRequests);

    // nullopt: not one of these fixtures.
    std::optional<Answer> callTool(const QString &name, const QJsonObject &arguments,
                                   const CallContext &context) const;
    std::optional<Answer> getPrompt(const QString &name, const QJsonObject &arguments,
                                    const CallContext &context) const;
    // A test:// resource, hints included in 2026.
    std::optional<QJsonObject> read(const QString &uri, bool modern) const;

private:
    // The multi-round-trip fixtures (2026-07-28 only).
    Answer inputRequired(const QString &name, const CallContext &context) const;

    const InputRequests &m_inputRequests;
};

} // namespace demo
