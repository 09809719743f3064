#pragma once

#include "pageoutcome.h"

#include <QJsonArray>
#include <QJsonObject>

namespace demo {

class Catalog;
class Scenario;

// The ADR-032 list tools search_posts, list_users and list_channels: tools/call answers that page
// by limit and an opaque cursor (base64url JSON {"t":tool,"f":fingerprint,"p":position,"n":page}).
class ListTools
{
public:
    ListTools(const Catalog &catalog, const Scenario &scenario);

    static bool isListTool(const QString &name);
    PageOutcome call(const QString &name, const QJsonObject &arguments, qint64 nowMs) const;

    static QString fingerprint(const QJsonObject &arguments);

private:
    struct Page
    {
        QJsonArray items;
        QJsonValue next = QJsonValue::Undefined; // position of the next page; undefined on the last page
        bool capped = false;
    };

    Page readPage(const QString &name, const QJsonObject &arguments, const QJsonValue &position,
                  int limit) const;
    // Walks from the first page to page n (2, 3, ...); undefined if the list ends earlier.
    QJsonValue positionOfPage(const QString &name, const QJsonObject &arguments, int limit, int n) const;

    const Catalog &m_catalog;
    const Scenario &m_scenario;
};

} // namespace demo
