#include "signinstore.h"

#include "netlogging.h"
#include "secretstore.h"

namespace folio {

SignInStore::SignInStore(const QUrl &serverUrl, SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_secrets(secrets)
    , m_authorizer(new Authorizer(serverUrl, this))
    , m_key(AuthRecord::keychainKey(serverUrl))
{
    connect(m_authorizer, &Authorizer::recordChanged, this, &SignInStore::save);
}

void SignInStore::load(std::function<void()> done)
{
    if (!m_secrets || m_secrets->isKnownAbsent(m_key)) {
        // Nothing to read: the first request need not wait for the keychain.
        m_loaded = true;
        done();
        return;
    }
    auto *ctx = new QObject(this);
    auto finish = [this, ctx, done] {
        ctx->deleteLater();
        m_loaded = true;
        Q_EMIT changed();
        done();
    };
    connect(m_secrets, &SecretStore::restored, ctx,
            [this, finish](const QString &key, const QString &secret) {
                if (key != m_key)
                    return;
                m_authorizer->setRecord(AuthRecord::fromJson(secret.toUtf8()));
                finish();
            });
    connect(m_secrets, &SecretStore::failed, ctx,
            [this, finish](const QString &key, SecretStore::Failure failure, const QString &message) {
                if (key != m_key)
                    return;
                if (failure != SecretStore::Failure::NotFound) {
                    qCInfo(lcSecrets).noquote() << "the saved sign-in could not be read:" << message;
                    m_problem = message;
                }
                finish();
            });
    m_secrets->read(m_key);
}

void SignInStore::save()
{
    Q_EMIT changed();
    if (!m_secrets) {
        m_problem = QStringLiteral("No keychain: the sign-in is kept for this session only");
        return;
    }
    const AuthRecord &record = m_authorizer->record();
    auto *ctx = new QObject(this);
    ++m_saving;
    auto answered = [this, ctx] {
        ctx->deleteLater();
        --m_saving;
        Q_EMIT saved();
    };
    connect(m_secrets, &SecretStore::stored, ctx, [this, answered](const QString &key) {
        if (key != m_key)
            return;
        if (!m_problem.isEmpty()) {
            m_problem.clear();
            Q_EMIT changed();
        }
        answered();
    });
    connect(m_secrets, &SecretStore::removed, ctx, [this, answered](const QString &key) {
        if (key == m_key)
            answered();
    });
    connect(m_secrets, &SecretStore::failed, ctx,
            [this, answered](const QString &key, SecretStore::Failure, const QString &message) {
                if (key != m_key)
                    return;
                m_problem = message + QStringLiteral(" The sign-in is kept for this session only.");
                qCInfo(lcSecrets).noquote() << "the sign-in could not be saved; kept for this session only";
                Q_EMIT changed();
                answered();
            });
    if (!record.isSignedIn() && record.clients.isEmpty())
        m_secrets->remove(m_key);
    else
        m_secrets->store(m_key, QString::fromUtf8(record.toJson()));
}

void SignInStore::signOut()
{
    m_authorizer->signOut(); // saves through recordChanged
}

void SignInStore::forget()
{
    m_authorizer->cancel();
    m_authorizer->setRecord({});
    save();
}

QString SignInStore::statusText(qint64 nowMs) const
{
    const AuthRecord &r = m_authorizer->record();
    if (!r.isSignedIn())
        return tr("Not signed in");
    QString text = tr("Signed in at %1").arg(r.issuer);
    if (const QJsonObject claims = decodeJwtClaims(r.tokens.accessToken);
        claims.contains(QStringLiteral("sub")))
        text = tr("Signed in as %1 at %2").arg(claims.value(QStringLiteral("sub")).toString(), r.issuer);
    if (!r.tokens.scope.isEmpty())
        text += tr(" (scope \"%1\")").arg(r.tokens.scope);
    if (r.tokens.expiresAtMs > 0) {
        const qint64 left = (r.tokens.expiresAtMs - nowMs) / 1000;
        text += left <= 0
                    ? tr(", expired") + (r.tokens.refreshToken.isEmpty() ? QString() : tr(" (will refresh)"))
                : left < 120  ? tr(", expires in %1 s").arg(left)
                : left < 7200 ? tr(", expires in %1 min").arg(left / 60)
                              : tr(", expires in %1 h").arg(left / 3600);
    }
    if (!m_problem.isEmpty())
        text += tr(" — for this session only: ") + m_problem;
    return text;
}

} // namespace folio
