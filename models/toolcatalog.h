#pragma once

#include "listsource.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace folio {

class McpClient;
class PageWalker;
class RowStore;
class TtlClock;

// Which tools a server has, and which of them are list tools: tools/list walked to its end (within
// its page cap) by a PageWalker, and read from that walk's rows. The one home of "find the tools":
// every command that names a tool (list tool:NAME, call), the conformance client, the window's
// session (which reads the walk behind its tools table) and the audit (its first walk).
class ToolCatalog : public QObject
{
    Q_OBJECT
public:
    // Walks tools/list itself, on find().
    ToolCatalog(McpClient *client, TtlClock *clock, QObject *parent = nullptr);
    ~ToolCatalog() override;

    PageWalker *walker() const { return m_walker; }
    void setPageCap(int cap);
    // Walks tools/list to its end; found() once the walk is over (complete or not).
    void find();
    bool isFound() const { return m_found; }
    // Whether the walk reached the end of the list (else stopReason() says why not).
    bool isComplete() const;
    QString stopReason() const;

    // The tool named name, as tools/list gave it.
    std::optional<QJsonObject> tool(const QString &name) const { return toolIn(rows(), name); }
    QList<QJsonObject> tools() const { return toolsIn(rows()); }
    // The list tools (ListSource::fromTool), in tools/list order.
    QList<ListSource> listTools() const { return listToolsIn(rows()); }
    // Why a tool named by the user is not there: the list did not end, or has no such tool.
    QString missingToolText(const QString &name) const;

    // The same answers over any walk of tools/list (the window's tools table, the audit's walk).
    static std::optional<QJsonObject> toolIn(const RowStore &rows, const QString &name);
    static QList<QJsonObject> toolsIn(const RowStore &rows);
    static QList<ListSource> listToolsIn(const RowStore &rows);

Q_SIGNALS:
    void found();

private:
    const RowStore &rows() const;
    void handleWalkFinished();

    PageWalker *m_walker;
    bool m_found = false;
};

} // namespace folio
