#pragma once

#include "auditresult.h"
#include "listsource.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio {

class RpcCall;

// The audit's cursor probes, apart from when they run: which cursor or arguments to send, and what
// the answer says about the server. Each judge returns a finding, a note (the probe was
// inconclusive), or neither (the server refused as it should).
namespace AuditProbes {

// What a list answered to one probe request, reduced to what the audit judges.
struct ProbeAnswer
{
    enum class Kind { Page, RpcError, ToolError, Failed };
    Kind kind = Kind::Failed;
    int code = 0;
    QString message;
    int itemCount = 0;
    QStringList identities;

    // call has finished; source is what it asked (a list tool's page may be an isError result).
    static ProbeAnswer read(const ListSource &source, const RpcCall &call);
    bool isRefusal() const { return kind == Kind::RpcError || kind == Kind::ToolError; }
    QJsonObject evidence() const;
};

// A cursor the server cannot have issued: cursor reversed, with "!" appended.
QString tamper(const QString &cursor);
// A cursor for a list that issued none to tamper with (it fits one page, or issued only ""): shaped
// like the commonest real cursors, base64url of a JSON object, so that a server reads it as one of
// its own and must then see it is not: {"folio":"forged-cursor"}, which no server issues.
QString forgedCursor();
// Arguments that differ from the walk's in one string property, for the "cursor with other
// arguments" probe: first a filter the walk left out, then a changed value of one it used.
QList<QJsonObject> otherArguments(const ListSource &source);

// page is 0-based: for the cursor probes the walk's page that sent the cursor, for the empty cursor
// the page that issued it.

// The tampered cursor must be refused with -32602; a list tool may refuse with isError.
CheckOutcome judgeTampered(const ProbeAnswer &answer, const QString &issued, const QString &tampered,
                           int page);
// The forged cursor must be refused as a tampered one; onlyEmptyIssued says the list issued "" (and
// nothing else) rather than no cursor at all.
CheckOutcome judgeForged(const ProbeAnswer &answer, const QString &forged, bool onlyEmptyIssued);
// A cursor issued by the list from must be refused.
CheckOutcome judgeForeignList(const ProbeAnswer &answer, const QString &from, const QString &cursor);
// The list's own cursor with other arguments must be refused.
CheckOutcome judgeOtherArguments(const ProbeAnswer &answer, const QString &cursor,
                                 const QJsonObject &walkArguments, const QJsonObject &probeArguments,
                                 int page);
// The "" the server issued must be accepted.
CheckOutcome judgeEmptyCursor(const ProbeAnswer &answer, int page);

} // namespace AuditProbes

} // namespace folio
