#include "signinprogress.h"

#include "authorizer.h"
#include "oauthflow.h"
#include "signinstore.h"

namespace folio {

namespace {

SignInFlow describe(const OAuthFlow *flow)
{
    SignInFlow f;
    f.title = Authorizer::flowTitle(flow);
    f.running = !flow->isFinished();
    f.succeeded = flow->succeeded();
    f.refreshOnly = flow->options().refreshOnly;
    f.error = flow->isFinished() && !flow->succeeded() ? flow->error().message : QString();
    f.steps = flow->steps();
    return f;
}

} // namespace

SignInProgress::SignInProgress(SignInStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    if (!store || !store->authorizer())
        return;
    Authorizer *a = store->authorizer();
    connect(store, &SignInStore::changed, this, &SignInProgress::changed);
    connect(a, &Authorizer::flowStarted, this, [this](OAuthFlow *flow) {
        attach(flow);
        Q_EMIT flowStarted();
    });
    connect(a, &Authorizer::flowFinished, this,
            [this](OAuthFlow *flow) { Q_EMIT flowFinished(flow && flow->succeeded()); });
    connect(a, &Authorizer::flowsCleared, this, [this] {
        attach(nullptr);
        Q_EMIT flowsCleared();
    });
    attach(a->flow());
}

SignInProgress::~SignInProgress() = default;

void SignInProgress::attach(OAuthFlow *flow)
{
    if (m_flow)
        m_flow->disconnect(this);
    m_flow = flow;
    if (!flow)
        return;
    connect(flow, &OAuthFlow::stepAdded, this, &SignInProgress::stepAdded);
    connect(flow, &OAuthFlow::stepChanged, this, &SignInProgress::stepChanged);
    connect(flow, &OAuthFlow::pausedChanged, this, &SignInProgress::changed);
}

SignInStore *SignInProgress::store() const
{
    return m_store;
}

bool SignInProgress::isAvailable() const
{
    return m_store && m_store->authorizer();
}

QList<SignInFlow> SignInProgress::pastFlows() const
{
    QList<SignInFlow> out;
    if (!isAvailable())
        return out;
    for (const Authorizer::PastFlow &p : m_store->authorizer()->pastFlows()) {
        SignInFlow f;
        f.title = p.title;
        f.succeeded = p.succeeded;
        f.error = p.succeeded ? QString() : p.error;
        f.steps = p.steps;
        out << f;
    }
    return out;
}

std::optional<SignInFlow> SignInProgress::currentFlow() const
{
    if (!isAvailable() || !m_store->authorizer()->flow())
        return std::nullopt;
    return describe(m_store->authorizer()->flow());
}

QList<AuthStep> SignInProgress::steps(int flowIndex) const
{
    if (!isAvailable())
        return {};
    const Authorizer *a = m_store->authorizer();
    if (flowIndex < 0)
        return a->flow() ? a->flow()->steps() : QList<AuthStep>();
    return flowIndex < a->pastFlows().size() ? a->pastFlows().at(flowIndex).steps : QList<AuthStep>();
}

bool SignInProgress::isRunning() const
{
    return isAvailable() && m_store->authorizer()->flow() && !m_store->authorizer()->flow()->isFinished();
}

bool SignInProgress::isPaused() const
{
    return isRunning() && m_store->authorizer()->flow()->isPaused();
}

bool SignInProgress::isStepped() const
{
    return isAvailable() && m_store->authorizer()->isStepped();
}

bool SignInProgress::isSignedIn() const
{
    return isAvailable() && m_store->authorizer()->isSignedIn();
}

bool SignInProgress::isLoaded() const
{
    return m_store && m_store->isLoaded();
}

bool SignInProgress::hasAnything() const
{
    if (!isAvailable())
        return false;
    const Authorizer *a = m_store->authorizer();
    return a->isSignedIn() || !a->pastFlows().isEmpty() || a->flow();
}

bool SignInProgress::isCounting() const
{
    return isSignedIn() && m_store->authorizer()->record().tokens.expiresAtMs > 0;
}

QString SignInProgress::serverUrl() const
{
    return m_store ? m_store->serverUrl().toString() : QString();
}

QString SignInProgress::statusText(qint64 nowMs) const
{
    if (!isAvailable())
        return {};
    const Authorizer *a = m_store->authorizer();
    if (isRunning()) {
        const OAuthFlow *flow = a->flow();
        const QString step = flow->steps().isEmpty() ? QString() : flow->steps().constLast().title;
        if (flow->isPaused())
            return tr("Paused before the step after “%1”: Continue when ready.").arg(step);
        if (flow->isWaitingForBrowser())
            return tr("Waiting for the browser: sign in there, then come back.");
        return tr("%1 in progress: %2…").arg(Authorizer::flowTitle(flow), step);
    }
    QString text = m_store->statusText(nowMs);
    if (!text.endsWith(QLatin1Char('.'))) // a keychain problem ends with its own full stop
        text += QLatin1Char('.');
    if (!a->isSignedIn() && !a->flow())
        text += tr(" Folio signs in when the server asks for it (an HTTP 401), or now with Sign in.");
    return text;
}

QUrl SignInProgress::waitingUrl() const
{
    const OAuthFlow *flow = isRunning() ? m_store->authorizer()->flow() : nullptr;
    return flow && flow->isWaitingForBrowser() ? flow->authorizationUrl() : QUrl();
}

void SignInProgress::openPageAgain()
{
    if (isRunning())
        m_store->authorizer()->flow()->openBrowserAgain();
}

void SignInProgress::setStepped(bool stepped)
{
    if (isAvailable())
        m_store->authorizer()->setStepped(stepped);
}

void SignInProgress::signIn()
{
    if (!isAvailable() || isRunning())
        return;
    if (!m_store->isLoaded()) {
        QPointer<SignInStore> store = m_store;
        m_store->load([store] {
            if (store)
                store->authorizer()->signIn();
        });
        return;
    }
    m_store->authorizer()->signIn();
}

void SignInProgress::signInWith(const OAuthClientSettings &settings)
{
    if (!isAvailable() || isRunning())
        return;
    m_store->authorizer()->setClientSettings(settings);
    signIn();
}

void SignInProgress::signOut()
{
    if (m_store)
        m_store->signOut();
}

void SignInProgress::continueFlow()
{
    if (isAvailable() && m_store->authorizer()->flow())
        m_store->authorizer()->flow()->continueFlow();
}

void SignInProgress::cancel()
{
    if (isAvailable())
        m_store->authorizer()->cancel();
}

} // namespace folio
