#include "authorizer.h"

#include "netlogging.h"
#include "oauthflow.h"
#include "wwwauthenticate.h"

#include <QDateTime>

#include <utility>

namespace folio {

Authorizer::Authorizer(const QUrl &serverUrl, QObject *parent)
    : QObject(parent)
    , m_serverUrl(serverUrl)
{}

void Authorizer::setRecord(const AuthRecord &record)
{
    m_record = record;
    m_dpopKey = m_record.isDpopBound() ? SigningKey::fromPem(m_record.dpopKeyPem) : SigningKey();
    // A DPoP-bound token without its key is no use (and must not go as Bearer): sign in again.
    if (m_record.tokens.tokenType.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0 &&
        m_dpopKey.isNull())
        m_record.tokens = {};
}

QList<std::pair<QByteArray, QByteArray>> Authorizer::authorizationHeaders(const QByteArray &method,
                                                                          const QUrl &url) const
{
    const QString token = accessToken();
    if (token.isEmpty())
        return {};
    if (m_dpopKey.isNull())
        return {{"Authorization", "Bearer " + token.toUtf8()}};
    const QString proof =
        jose::dpopProof(m_dpopKey, method, url, token, m_dpopNonce, QDateTime::currentSecsSinceEpoch());
    return {{"Authorization", "DPoP " + token.toUtf8()}, {"DPoP", proof.toLatin1()}};
}

void Authorizer::noteDpopNonce(const QByteArray &nonce)
{
    // A nonce is an opaque token68-ish string; a hostile server's bytes go into our proofs only as
    // a JSON string, bounded.
    if (!nonce.isEmpty() && nonce.size() <= 1024)
        m_dpopNonce = QString::fromLatin1(nonce);
}

bool Authorizer::runsWithoutPerson() const
{
    return m_settings.grant != OAuthGrant::AuthorizationCode ||
           (m_record.grant == OAuthGrant::ClientCredentials && m_record.clientFor(m_record.issuer).isValid());
}

void Authorizer::handleRefusal(int status, const QByteArray &challenge, const QString &usedToken,
                               QObject *context, Done done)
{
    // Renewed since that request left (another request's refusal did it): just send it again.
    if (!m_flowRunning && !accessToken().isEmpty() && usedToken != accessToken()) {
        done({});
        return;
    }
    m_waiters.append({context, std::move(done)});
    if (m_flowRunning)
        return;

    AuthChallenge bearer;
    for (const AuthChallenge &c : parseWwwAuthenticate(challenge)) {
        if (c.isScheme(u"Bearer") || c.isScheme(u"DPoP")) {
            bearer = c;
            break;
        }
    }
    // RFC 9449 §9: the resource server wants its nonce in the proof. The transport noted the nonce
    // from the answer; the request goes again with it (the transport bounds how often).
    if (status == 401 && !m_dpopKey.isNull() && bearer.isScheme(u"DPoP") &&
        bearer.param(u"error") == QLatin1String("use_dpop_nonce") && !m_dpopNonce.isEmpty() &&
        usedToken == accessToken()) {
        m_nonceRetry = true;
        settle({});
        return;
    }
    if (status == 403) {
        if (bearer.param(u"error") != QLatin1String("insufficient_scope")) {
            settle(McpError::make(McpError::Kind::InsufficientScope,
                                  QStringLiteral("The server forbids this request (HTTP 403%1)")
                                      .arg(challenge.isEmpty() ? QString()
                                                               : QStringLiteral(", WWW-Authenticate: ") +
                                                                     QString::fromLatin1(challenge))));
            return;
        }
        if (!m_interactive) {
            settle(McpError::make(
                McpError::Kind::InsufficientScope,
                QStringLiteral("The server wants more scopes (%1): sign in again to grant them%2")
                    .arg(bearer.param(u"scope"),
                         m_hint.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_hint))));
            return;
        }
        startFlow(status, challenge, false);
        return;
    }
    // 401: refresh once, where a refresh token was issued.
    if (!m_record.tokens.refreshToken.isEmpty() && usedToken == accessToken() && !usedToken.isEmpty() &&
        m_refreshedFrom != usedToken) {
        startFlow(status, challenge, true);
        return;
    }
    if (m_machineFailure.isError()) {
        settle(m_machineFailure);
        return;
    }
    if (!m_interactive && !runsWithoutPerson()) {
        settle(
            McpError::make(McpError::Kind::AuthRequired,
                           m_record.isSignedIn()
                               ? QStringLiteral("The server refused the saved sign-in and it could not be "
                                                "refreshed: sign in again")
                               : QStringLiteral("The server needs sign-in") +
                                     (m_hint.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_hint))));
        return;
    }
    startFlow(status, challenge, false);
}

void Authorizer::signIn()
{
    if (m_flowRunning)
        return;
    m_machineFailure = {};
    startFlow(0, {}, false);
}

void Authorizer::signOut()
{
    cancel();
    m_record.tokens = {};
    m_record.dpopKeyPem.clear();
    m_dpopKey = {};
    m_refreshedFrom.clear();
    m_pastFlows.clear();
    if (m_flow) {
        m_flow->deleteLater();
        m_flow = nullptr;
    }
    Q_EMIT flowsCleared();
    Q_EMIT recordChanged();
}

QString Authorizer::flowTitle(const OAuthFlow *flow)
{
    if (flow->options().refreshOnly)
        return tr("Refresh");
    return flow->options().challengeStatus == 403 ? tr("Step-up") : tr("Sign-in");
}

void Authorizer::cancel()
{
    if (m_flow && m_flowRunning)
        m_flow->cancel();
}

void Authorizer::startFlow(int status, const QByteArray &challenge, bool refreshOnly)
{
    OAuthFlow::Options options;
    options.serverUrl = m_serverUrl;
    options.challenge = challenge;
    options.challengeStatus = status;
    options.client = m_settings;
    if (options.client.grant == OAuthGrant::AuthorizationCode &&
        m_record.grant == OAuthGrant::ClientCredentials) {
        // A machine signed in before: its saved client credentials get a new token, no person needed.
        const OAuthClient client = m_record.clientFor(m_record.issuer);
        options.client.grant = OAuthGrant::ClientCredentials;
        options.client.preRegisteredClientId = client.clientId;
        options.client.preRegisteredClientSecret = client.clientSecret;
        options.client.clientKeyPem = client.privateKeyPem;
        options.client.preRegisteredIssuer = m_record.issuer;
    }
    options.record = m_record;
    options.refreshOnly = refreshOnly;
    options.openBrowser = m_browser;
    options.stepped = m_stepped && !refreshOnly;
    options.callbackTimeoutMs = m_callbackTimeoutMs;
    if (status == 403 && m_record.isSignedIn())
        options.heldScopes = m_record.tokens.scope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_refreshing = refreshOnly;
    m_challengeStatus = status;
    m_challenge = challenge;
    if (refreshOnly)
        m_refreshedFrom = accessToken();
    if (m_flow && !m_flowRunning) {
        m_pastFlows.append(
            {flowTitle(m_flow), m_flow->succeeded(), m_flow->error().message, m_flow->steps()});
        if (m_pastFlows.size() > maxPastFlows)
            m_pastFlows.removeFirst();
        m_flow->deleteLater();
    }
    m_flow = new OAuthFlow(options, this);
    m_flowRunning = true;
    connect(m_flow, &OAuthFlow::finished, this, &Authorizer::handleFlowFinished);
    qCDebug(lcHttp).noquote() << (refreshOnly ? "refreshing the access token for" : "signing in to")
                              << m_serverUrl.toString(QUrl::RemoveUserInfo);
    Q_EMIT flowStarted(m_flow);
    m_flow->start();
}

void Authorizer::handleFlowFinished()
{
    OAuthFlow *flow = m_flow;
    m_flowRunning = false;
    m_nonceRetry = false;
    if (flow->succeeded()) {
        setRecord(flow->record());
        m_dpopNonce.clear();
        Q_EMIT recordChanged();
        Q_EMIT flowFinished(flow);
        settle({});
        return;
    }
    Q_EMIT flowFinished(flow);
    if (!m_refreshing && flow->options().client.grant != OAuthGrant::AuthorizationCode &&
        flow->error().kind != McpError::Kind::Cancelled)
        m_machineFailure = flow->error();
    if (m_refreshing && flow->error().kind != McpError::Kind::Cancelled) {
        // The refresh token was refused (expired, revoked, rotated away): sign in again.
        m_record.tokens.refreshToken.clear();
        Q_EMIT recordChanged();
        if (m_interactive) {
            startFlow(m_challengeStatus, m_challenge, false);
            return;
        }
    }
    settle(flow->error());
}

void Authorizer::settle(const McpError &error)
{
    const QList<Waiter> waiters = std::exchange(m_waiters, {});
    for (const Waiter &w : waiters) {
        if (w.context)
            w.done(error);
    }
}

void Authorizer::noteAuthorizedRequest(const QString &what, int status)
{
    if (!m_flow || m_flowRunning || !m_flow->succeeded())
        return;
    // The first one tells; later requests are the traffic view's. But a first one refused only for
    // the resource server's DPoP nonce (RFC 9449 §9) went again with it: that answer tells.
    const bool afterNonce = std::exchange(m_nonceRetry, false);
    int replaced = -1;
    for (int i = 0; i < m_flow->steps().size(); ++i) {
        const AuthStep &s = m_flow->steps().at(i);
        if (s.kind != AuthStep::Kind::AuthorizedRequest)
            continue;
        if (!afterNonce || s.state != AuthStep::State::Failed)
            return;
        replaced = i;
    }
    AuthStep step;
    step.kind = AuthStep::Kind::AuthorizedRequest;
    step.title = AuthStep::kindName(step.kind);
    step.state = status >= 200 && status < 300 ? AuthStep::State::Done : AuthStep::State::Failed;
    step.summary = (afterNonce ? QStringLiteral("%1 sent again with the token and the DPoP nonce: HTTP %2")
                               : QStringLiteral("%1 sent again with the token: HTTP %2"))
                       .arg(what, QString::number(status));
    step.verdicts.append({QStringLiteral("Authorization header on the request"), true,
                          m_dpopKey.isNull() ? QStringLiteral("Bearer")
                                             : QStringLiteral("DPoP, with a fresh proof on every request")});
    if (afterNonce)
        step.verdicts.append({QStringLiteral("DPoP nonce"), true,
                              QStringLiteral("the resource server asked for one (use_dpop_nonce): sent "
                                             "again with it")});
    step.startedMs = step.finishedMs = QDateTime::currentMSecsSinceEpoch();
    if (replaced >= 0)
        m_flow->replaceStep(replaced, step);
    else
        m_flow->appendStep(step);
}

} // namespace folio
