#include "auditprobes.h"
#include "counted.h"

#include "auditedwalk.h"
#include "itemdiff.h"
#include "rpccall.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <optional>

namespace folio::AuditProbes {

ProbeAnswer ProbeAnswer::read(const ListSource &source, const RpcCall &call)
{
    ProbeAnswer a;
    if (call.isError()) {
        const McpError e = call.error();
        a.kind = e.kind == McpError::Kind::Rpc ? Kind::RpcError : Kind::Failed;
        a.code = e.code;
        a.message = e.kind == McpError::Kind::Rpc ? e.message : e.describe();
        return a;
    }
    const ListSource::Page page = source.readPage(call.result());
    if (page.toolError) {
        a.kind = Kind::ToolError;
        for (const QJsonValue &block : call.result().value(QStringLiteral("content")).toArray())
            a.message += block.toObject().value(QStringLiteral("text")).toString();
    } else if (!page.extractionError.isEmpty()) {
        a.kind = Kind::Failed;
        a.message = QStringLiteral("the answer is not a page: %1").arg(page.extractionError);
    } else {
        a.kind = Kind::Page;
        a.itemCount = int(page.items.size());
        for (const QJsonValue &item : page.items)
            a.identities.append(ItemDiff::identity(item.toObject()));
    }
    return a;
}

QJsonObject ProbeAnswer::evidence() const
{
    switch (kind) {
    case Kind::Page:
        return {{QStringLiteral("answer"), QStringLiteral("page")},
                {QStringLiteral("itemCount"), itemCount},
                {QStringLiteral("items"), firstIdentities(identities, 5)}};
    case Kind::RpcError:
        return {{QStringLiteral("answer"), QStringLiteral("error")},
                {QStringLiteral("code"), code},
                {QStringLiteral("message"), message}};
    case Kind::ToolError:
        return {{QStringLiteral("answer"), QStringLiteral("isError")}, {QStringLiteral("message"), message}};
    case Kind::Failed:
        break;
    }
    return {{QStringLiteral("answer"), QStringLiteral("failed")}, {QStringLiteral("message"), message}};
}

QString tamper(const QString &cursor)
{
    QString reversed = cursor;
    std::reverse(reversed.begin(), reversed.end());
    if (reversed == cursor)
        reversed += QStringLiteral("x");
    return reversed + QStringLiteral("!");
}

QString forgedCursor()
{
    return QString::fromLatin1(QByteArrayLiteral("{\"folio\":\"forged-cursor\"}")
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// A server may refuse either change for its own reasons (e.g. an unknown channel), so both are worth
// a try.
QList<QJsonObject> otherArguments(const ListSource &source)
{
    const QJsonObject schema = source.toolDefinition().value(QStringLiteral("inputSchema")).toObject();
    const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    const QJsonObject current = source.arguments();
    std::optional<QJsonObject> added, changed;
    for (auto it = props.begin(); it != props.end(); ++it) {
        if (it.key() == source.cursorArgument() || it.key() == source.limitArgument())
            continue;
        const QJsonObject prop = it.value().toObject();
        const QJsonValue type = prop.value(QStringLiteral("type"));
        if (!type.isUndefined() && type != QJsonValue(QStringLiteral("string")))
            continue;
        const bool used = current.contains(it.key());
        if (used ? changed.has_value() : added.has_value())
            continue;
        QJsonObject args = current;
        const QJsonArray choices = prop.value(QStringLiteral("enum")).toArray();
        if (!choices.isEmpty()) {
            const auto other = std::find_if(choices.begin(), choices.end(), [&](const QJsonValue &choice) {
                return choice.isString() && choice != current.value(it.key());
            });
            if (other == choices.end())
                continue;
            args[it.key()] = *other;
        } else {
            args[it.key()] = current.value(it.key()).toString() + QStringLiteral("a");
        }
        (used ? changed : added) = args;
    }
    QList<QJsonObject> out;
    if (added)
        out << *added;
    if (changed)
        out << *changed;
    return out;
}

CheckOutcome judgeTampered(const ProbeAnswer &answer, const QString &issued, const QString &tampered,
                           int page)
{
    QJsonObject evidence = answer.evidence();
    evidence.insert(QStringLiteral("probe"), QStringLiteral("tampered-cursor"));
    evidence.insert(QStringLiteral("cursor"), tampered);
    evidence.insert(QStringLiteral("issuedCursor"), issued);
    switch (answer.kind) {
    case ProbeAnswer::Kind::Page:
        return {
            auditFinding(FindingId::InvalidCursorAccepted, {page},
                         QStringLiteral("A tampered cursor (page %1's cursor reversed, with \"!\" appended) "
                                        "was answered with a page of %2 instead of an error -32602")
                             .arg(QString::number(page + 1), counted(answer.itemCount, "item", "items")),
                         evidence),
            {}};
    case ProbeAnswer::Kind::RpcError:
        if (answer.code != -32602)
            return {
                auditFinding(
                    FindingId::InvalidCursorWrongCode, {page},
                    QStringLiteral("A tampered cursor was refused with %1 (%2), not -32602 (invalid params)")
                        .arg(QString::number(answer.code), shortText(answer.message)),
                    evidence),
                {}};
        return {};
    case ProbeAnswer::Kind::ToolError:
        return {}; // a list tool refusing with isError: tool-level paging has no error code
    case ProbeAnswer::Kind::Failed:
        break;
    }
    return {std::nullopt, QStringLiteral("tampered-cursor probe inconclusive: %1").arg(answer.message)};
}

CheckOutcome judgeForged(const ProbeAnswer &answer, const QString &forged, bool onlyEmptyIssued)
{
    QJsonObject evidence = answer.evidence();
    evidence.insert(QStringLiteral("probe"), QStringLiteral("forged-cursor"));
    evidence.insert(QStringLiteral("cursor"), forged);
    const QString list = onlyEmptyIssued ? QStringLiteral("The list issued no cursor but \"\"")
                                         : QStringLiteral("The list fits one page (it issued no cursor)");
    switch (answer.kind) {
    case ProbeAnswer::Kind::Page:
        return {auditFinding(FindingId::InvalidCursorAccepted, {},
                             QStringLiteral("%1, yet a forged cursor (%2) was answered with a page of %3 "
                                            "instead of an error -32602")
                                 .arg(list, shortText(forged), counted(answer.itemCount, "item", "items")),
                             evidence),
                {}};
    case ProbeAnswer::Kind::RpcError:
        if (answer.code != -32602)
            return {auditFinding(FindingId::InvalidCursorWrongCode, {},
                                 QStringLiteral("%1; a forged cursor was refused with %2 (%3), not -32602 "
                                                "(invalid params)")
                                     .arg(list, QString::number(answer.code), shortText(answer.message)),
                                 evidence),
                    {}};
        return {};
    case ProbeAnswer::Kind::ToolError:
        return {}; // as a tampered cursor: tool-level paging has no error code
    case ProbeAnswer::Kind::Failed:
        break;
    }
    return {std::nullopt, QStringLiteral("forged-cursor probe inconclusive: %1").arg(answer.message)};
}

CheckOutcome judgeForeignList(const ProbeAnswer &answer, const QString &from, const QString &cursor)
{
    if (answer.kind == ProbeAnswer::Kind::Page) {
        QJsonObject evidence = answer.evidence();
        evidence.insert(QStringLiteral("probe"), QStringLiteral("cursor-from-other-list"));
        evidence.insert(QStringLiteral("from"), from);
        evidence.insert(QStringLiteral("cursor"), cursor);
        return {auditFinding(FindingId::ForeignCursorAccepted, {},
                             QStringLiteral("A cursor issued by %1 was accepted: answered with a page of %2")
                                 .arg(from, counted(answer.itemCount, "item", "items")),
                             evidence),
                {}};
    }
    if (answer.kind == ProbeAnswer::Kind::Failed)
        return {std::nullopt,
                QStringLiteral("cursor-from-another-list probe inconclusive: %1").arg(answer.message)};
    return {};
}

CheckOutcome judgeOtherArguments(const ProbeAnswer &answer, const QString &cursor,
                                 const QJsonObject &walkArguments, const QJsonObject &probeArguments,
                                 int page)
{
    if (answer.kind == ProbeAnswer::Kind::Page) {
        QJsonObject evidence = answer.evidence();
        evidence.insert(QStringLiteral("probe"), QStringLiteral("cursor-with-other-arguments"));
        evidence.insert(QStringLiteral("cursor"), cursor);
        evidence.insert(QStringLiteral("walkArguments"), walkArguments);
        evidence.insert(QStringLiteral("probeArguments"), probeArguments);
        return {auditFinding(
                    FindingId::ForeignCursorAccepted, {page},
                    QStringLiteral("Page %1's cursor was accepted with other arguments (%2): answered with a "
                                   "page of %3")
                        .arg(QString::number(page + 1),
                             QString::fromUtf8(QJsonDocument(probeArguments).toJson(QJsonDocument::Compact)),
                             counted(answer.itemCount, "item", "items")),
                    evidence),
                {}};
    }
    if (answer.kind == ProbeAnswer::Kind::Failed)
        return {std::nullopt,
                QStringLiteral("cursor-with-other-arguments probe inconclusive: %1").arg(answer.message)};
    return {};
}

CheckOutcome judgeEmptyCursor(const ProbeAnswer &answer, int page)
{
    if (answer.isRefusal()) {
        QJsonObject evidence = answer.evidence();
        evidence.insert(QStringLiteral("probe"), QStringLiteral("empty-cursor"));
        evidence.insert(QStringLiteral("cursor"), QString());
        return {auditFinding(FindingId::EmptyCursorRejected, {page},
                             QStringLiteral("The server refused the \"\" cursor it issued on page %1: %2")
                                 .arg(QString::number(page + 1), shortText(answer.message)),
                             evidence),
                {}};
    }
    if (answer.kind == ProbeAnswer::Kind::Failed)
        return {std::nullopt, QStringLiteral("empty-cursor probe inconclusive: %1").arg(answer.message)};
    return {};
}

} // namespace folio::AuditProbes
