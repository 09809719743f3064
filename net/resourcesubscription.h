#pragma once

#include <QString>

namespace folio {

// Where a subscription to one resource stands (McpClient::resourceSubscription()): a plain value
// the models and the window read without speaking the protocol. Over 2025 the client asks with
// resources/subscribe; over 2026-07-28 the URI rides in the subscriptions/listen stream's
// resourceSubscriptions, and the server's acknowledgement says whether it was granted.
struct ResourceSubscription
{
    enum class State {
        None,       // not asked (or unsubscribed)
        NotOffered, // the server does not advertise resources.subscribe
        Pending,    // asked; no answer yet
        Active,     // the server will send notifications/resources/updated for it
        Refused,    // the server said no, or the stream carrying it ended (detail says which)
    };
    State state = State::None;
    QString detail; // why it is NotOffered or Refused, as a person reads it

    // "none", "not-offered", "pending", "active", "refused" (JSON reports).
    static QString stateName(State state)
    {
        switch (state) {
        case State::None:
            return QStringLiteral("none");
        case State::NotOffered:
            return QStringLiteral("not-offered");
        case State::Pending:
            return QStringLiteral("pending");
        case State::Active:
            return QStringLiteral("active");
        case State::Refused:
            return QStringLiteral("refused");
        }
        return {};
    }

    bool operator==(const ResourceSubscription &other) const
    {
        return state == other.state && detail == other.detail;
    }
};

} // namespace folio
