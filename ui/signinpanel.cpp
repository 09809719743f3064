#include "signinpanel.h"

#include "machinesignindialog.h"

#include "secretmask.h"
#include "serversession.h"
#include "signinprogress.h"
#include "statuscolors.h"
#include "terminaltext.h"

#include <QCheckBox>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace folio {

namespace {

enum { FlowRole = Qt::UserRole + 1, StepRole };
} // namespace

const int SignInPanel::StateRole = Qt::UserRole + 3;

namespace {
// FlowRole: -1 the current flow, else the index in SignInProgress::pastFlows(). StepRole: the step's
// index in its flow (-1 on a flow's own row).
constexpr int currentFlow = -1;

// What an exchange's body shows at most: an authorization server's answers are small, and a
// hostile one must not stall the panel.
constexpr qsizetype shownBodyBytes = 64 * 1024;

// An authorization server's text (its metadata, errors, bodies) as HTML: hidden characters shown
// as <U+XXXX>, then escaped.
QString esc(const QString &text)
{
    return terminalSafe(text).toHtmlEscaped();
}

QString stateMark(AuthStep::State state)
{
    switch (state) {
    case AuthStep::State::Done:
        return QStringLiteral("\u2713"); // check mark
    case AuthStep::State::Failed:
        return QStringLiteral("\u2717"); // ballot x
    case AuthStep::State::Waiting:
        return QStringLiteral("\u2016"); // double vertical line: a pause that every font draws
    case AuthStep::State::Running:
        return QStringLiteral("\u2026"); // ellipsis
    }
    return {};
}

QColor stateColor(AuthStep::State state, const StatusColors &colors);

// A step's state as a small disc with its mark, in the state's colour: the title stays in the
// text colour, readable in light and dark.
QIcon stateIcon(AuthStep::State state, const StatusColors &colors, qreal dpr)
{
    const int side = 14;
    QPixmap pixmap(QSize(side, side) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color = stateColor(state, colors);
    const QRectF box(1, 1, side - 2, side - 2);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(box);
    QPen pen(colors.palette().color(QPalette::Base), 1.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    switch (state) {
    case AuthStep::State::Done:
        p.drawPolyline(QPolygonF{{4.0, 7.2}, {6.2, 9.6}, {10.2, 4.8}});
        break;
    case AuthStep::State::Failed:
        p.drawLine(QPointF(4.6, 4.6), QPointF(9.4, 9.4));
        p.drawLine(QPointF(9.4, 4.6), QPointF(4.6, 9.4));
        break;
    case AuthStep::State::Waiting:
        p.drawLine(QPointF(5.5, 4.5), QPointF(5.5, 9.5));
        p.drawLine(QPointF(8.5, 4.5), QPointF(8.5, 9.5));
        break;
    case AuthStep::State::Running:
        for (const qreal x : {4.5, 7.0, 9.5})
            p.drawPoint(QPointF(x, 7.0));
        break;
    }
    return QIcon(pixmap);
}

QColor stateColor(AuthStep::State state, const StatusColors &colors)
{
    switch (state) {
    case AuthStep::State::Done:
        return colors.fresh();
    case AuthStep::State::Failed:
        return colors.failed();
    case AuthStep::State::Waiting:
        return colors.stale();
    case AuthStep::State::Running:
        return colors.loading();
    }
    return colors.text();
}

// A body as text: JSON indented, a form one field per line, anything else as it came.
QString bodyText(const QByteArray &body, const QByteArray &contentType)
{
    const QByteArray shown = body.left(shownBodyBytes);
    QString text;
    QJsonParseError error{};
    const QJsonDocument json = QJsonDocument::fromJson(shown, &error);
    if (error.error == QJsonParseError::NoError && !json.isNull()) {
        text = QString::fromUtf8(json.toJson(QJsonDocument::Indented)).trimmed();
    } else if (contentType.contains("x-www-form-urlencoded")) {
        const QUrlQuery form(QString::fromUtf8(shown));
        for (const auto &[key, value] : form.queryItems(QUrl::FullyDecoded))
            text += key + QStringLiteral(" = ") + value + QLatin1Char('\n');
        text = text.trimmed();
    } else {
        text = QString::fromUtf8(shown);
    }
    if (body.size() > shown.size())
        text += QStringLiteral("\n… (%1 bytes more)").arg(body.size() - shown.size());
    return text;
}

QString headersText(const HttpExchange::Headers &headers)
{
    QString text;
    for (const auto &[name, value] : headers)
        text +=
            QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value) + QLatin1Char('\n');
    return text;
}

QString exchangeHtml(const HttpExchange &ex, const StatusColors &colors)
{
    QString request = QString::fromLatin1(ex.method) + QLatin1Char(' ') + ex.url + QLatin1Char('\n') +
                      headersText(ex.requestHeaders);
    if (!ex.requestBody.isEmpty())
        request += QLatin1Char('\n') +
                   bodyText(ex.requestBody, ex.header(ex.requestHeaders, "content-type").toLower());
    QString response;
    if (ex.status == 0) {
        response = ex.error.isEmpty() ? QObject::tr("(no answer yet)") : ex.error;
    } else {
        response = QStringLiteral("HTTP %1 %2\n")
                       .arg(QString::number(ex.status), QString::fromLatin1(ex.statusText)) +
                   headersText(ex.responseHeaders);
        if (!ex.responseBody.isEmpty())
            response += QLatin1Char('\n') +
                        bodyText(ex.responseBody, ex.header(ex.responseHeaders, "content-type").toLower());
    }
    const QColor statusColor = ex.status >= 200 && ex.status < 400 ? colors.text() : colors.failed();
    return QStringLiteral("<p style='margin-top:10px'><b>%1</b></p><pre>%2</pre>"
                          "<p><b style='color:%3'>%4</b></p><pre>%5</pre>")
        .arg(QObject::tr("Request"), esc(request.trimmed()), statusColor.name(), QObject::tr("Response"),
             esc(response.trimmed()));
}

} // namespace

QString authStepHtml(const AuthStep &step, bool reveal, const QPalette &palette)
{
    const StatusColors colors(palette);
    QString html = QStringLiteral("<h3 style='margin:0'>%1 <span style='color:%2'>%3 %4</span></h3>")
                       .arg(esc(step.title), stateColor(step.state, colors).name(), stateMark(step.state),
                            esc(AuthStep::stateName(step.state)));
    if (!step.summary.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(step.summary));
    if (!step.error.isEmpty())
        html += QStringLiteral("<p style='color:%1'><b>%2</b> %3</p>")
                    .arg(colors.failed().name(), esc(QObject::tr("Failed:")), esc(step.error));
    if (!step.verdicts.isEmpty()) {
        html +=
            QStringLiteral("<p style='margin-top:10px'><b>%1</b></p><table cellspacing='0' cellpadding='2'>")
                .arg(QObject::tr("Rules checked"));
        for (const AuthVerdict &v : step.verdicts)
            html += QStringLiteral("<tr><td style='color:%1'>%2&nbsp;</td><td>%3</td><td style='color:%4'>"
                                   "&nbsp;%5</td></tr>")
                        .arg((v.passed ? colors.fresh() : colors.failed()).name(),
                             v.passed ? QStringLiteral("\u2713") : QStringLiteral("\u2717"), esc(v.rule),
                             colors.mutedText().name(), esc(v.detail));
        html += QStringLiteral("</table>");
    }
    if (!step.details.isEmpty())
        html += QStringLiteral("<p style='margin-top:10px'><b>%1</b></p><pre>%2</pre>")
                    .arg(QObject::tr("Found"),
                         esc(QString::fromUtf8(QJsonDocument(step.details).toJson(QJsonDocument::Indented))
                                 .trimmed()));
    if (!step.jwtClaims.isEmpty())
        html += QStringLiteral("<p style='margin-top:10px'><b>%1</b> <span style='color:%2'>%3</span></p>"
                               "<pre>%4</pre>")
                    .arg(step.kind == AuthStep::Kind::TokenExchange ? QObject::tr("ID-JAG claims")
                                                                    : QObject::tr("Access token claims"),
                         colors.mutedText().name(), esc(QObject::tr("(a JWT, decoded, not verified)")),
                         esc(QString::fromUtf8(QJsonDocument(step.jwtClaims).toJson(QJsonDocument::Indented))
                                 .trimmed()));
    for (const HttpExchange &raw : step.exchanges)
        html += exchangeHtml(reveal ? raw : SecretMask::abbreviateExchange(raw), colors);
    if (step.startedMs > 0 && step.finishedMs >= step.startedMs)
        html += QStringLiteral("<p style='color:%1'>%2</p>")
                    .arg(colors.mutedText().name(),
                         esc(QObject::tr("%1, %2 ms")
                                 .arg(QDateTime::fromMSecsSinceEpoch(step.startedMs)
                                          .toString(QStringLiteral("HH:mm:ss")),
                                      QString::number(step.finishedMs - step.startedMs))));
    return html;
}

SignInPanel::SignInPanel(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_signInButton(new QPushButton(tr("Sign in"), this))
    , m_machine(new QPushButton(tr("Machine Sign-in\u2026"), this))
    , m_signOut(new QPushButton(tr("Sign out…"), this))
    , m_stepped(new QCheckBox(tr("Step through"), this))
    , m_openAgain(new QPushButton(tr("Open Page Again"), this))
    , m_copyLink(new QPushButton(tr("Copy Link"), this))
    , m_continue(new QPushButton(tr("Continue"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_steps(new QTreeWidget(this))
    , m_reveal(new QCheckBox(tr("Show secrets"), this))
    , m_detail(new QTextBrowser(this))
    , m_tick(new QTimer(this))
{
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_signInButton->setToolTip(tr("Sign in to the server now (OAuth, in the browser)"));
    m_signOut->setToolTip(tr("Forget the server's tokens, here and in the keychain"));
    m_machine->setObjectName(QStringLiteral("machineSignIn"));
    m_machine->setToolTip(
        tr("Sign in without a person: client credentials, a workload's JWT, or your identity "
           "provider's ID token"));
    m_stepped->setToolTip(tr("Pause after every step of the next sign-in until Continue"));
    m_continue->setToolTip(tr("Go on with the next step of the sign-in"));
    m_openAgain->setObjectName(QStringLiteral("openSignInPageAgain"));
    m_openAgain->setToolTip(tr("Open the authorization page in the browser again (a tab closed too soon)"));
    m_copyLink->setObjectName(QStringLiteral("copySignInLink"));
    m_copyLink->setToolTip(tr("Copy the authorization page's address, to open it in another browser"));
    m_openAgain->hide();
    m_copyLink->hide();
    m_reveal->setToolTip(tr("Show tokens, codes and secrets in the exchanges instead of masking them"));
    m_steps->setColumnCount(2);
    m_steps->setHeaderLabels({tr("Step"), tr("What it found")});
    m_steps->header()->setStretchLastSection(true);
    m_steps->setUniformRowHeights(true);
    m_steps->setTextElideMode(Qt::ElideRight);
    m_detail->setOpenLinks(false);
    m_detail->document()->setDefaultStyleSheet(
        QStringLiteral("pre { font-family: '%1'; white-space: pre-wrap; }")
            .arg(QFontDatabase::systemFont(QFontDatabase::FixedFont).family()));

    connect(m_signInButton, &QPushButton::clicked, this, &SignInPanel::signIn);
    connect(m_machine, &QPushButton::clicked, this, [this] { signInAsMachine(); });
    connect(m_signOut, &QPushButton::clicked, this, [this] { signOut(); });
    connect(m_continue, &QPushButton::clicked, this, &SignInPanel::continueFlow);
    connect(m_cancel, &QPushButton::clicked, this, &SignInPanel::cancel);
    connect(m_openAgain, &QPushButton::clicked, this, [this] {
        if (available())
            m_progress->openPageAgain();
    });
    connect(m_copyLink, &QPushButton::clicked, this, [this] {
        if (const QUrl url = available() ? m_progress->waitingUrl() : QUrl(); url.isValid())
            QGuiApplication::clipboard()->setText(url.toString(QUrl::FullyEncoded));
    });
    connect(m_stepped, &QCheckBox::toggled, this, [this](bool on) {
        if (m_progress)
            m_progress->setStepped(on);
    });
    connect(m_reveal, &QCheckBox::toggled, this, &SignInPanel::showDetail);
    connect(m_steps, &QTreeWidget::currentItemChanged, this, [this] {
        // Secrets are shown for the step the user asked about, not the next one selected.
        m_reveal->setChecked(false);
        showDetail();
    });
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &SignInPanel::updateStatus);

    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    for (QWidget *w : {static_cast<QWidget *>(m_openAgain), static_cast<QWidget *>(m_copyLink),
                       static_cast<QWidget *>(m_stepped), static_cast<QWidget *>(m_continue),
                       static_cast<QWidget *>(m_cancel), static_cast<QWidget *>(m_signInButton),
                       static_cast<QWidget *>(m_machine), static_cast<QWidget *>(m_signOut)})
        top->addWidget(w, 0, Qt::AlignTop);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_reveal, 0, Qt::AlignRight);
    rightLayout->addWidget(m_detail, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_steps);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    rebuild();
}

SignInPanel::~SignInPanel() = default;

void SignInPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange)
        return;
    // Light to dark or back: the state icons and the detail's colours follow.
    for (int f = 0; m_progress && f < m_steps->topLevelItemCount(); ++f) {
        QTreeWidgetItem *group = m_steps->topLevelItem(f);
        const QList<AuthStep> steps = m_progress->steps(group->data(0, FlowRole).toInt());
        for (int i = 0; i < group->childCount() && i < steps.size(); ++i)
            fillStepItem(group->child(i), steps.at(i));
    }
    showDetail();
}

bool SignInPanel::available() const
{
    return m_progress && m_progress->isAvailable();
}

void SignInPanel::setSession(ServerSession *session)
{
    SignInStore *store = session ? session->signIn() : nullptr;
    if (m_session == session && (m_progress ? m_progress->store() : nullptr) == store)
        return;
    if (m_session)
        m_session->disconnect(this);
    delete m_progress;
    m_session = session;
    m_progress = store ? new SignInProgress(store, this) : nullptr;
    m_connectAfter = false;
    if (session) {
        // The URL was edited: the session made its sign-in anew.
        connect(session, &ServerSession::signInChanged, this, [this] { setSession(m_session); });
        connect(session, &ServerSession::stateChanged, this, &SignInPanel::updateStatus);
    }
    if (available()) {
        m_stepped->setChecked(m_progress->isStepped());
        connect(m_progress, &SignInProgress::changed, this, &SignInPanel::updateStatus);
        connect(m_progress, &SignInProgress::flowStarted, this, [this] {
            rebuild();
            Q_EMIT flowStarted();
        });
        connect(m_progress, &SignInProgress::flowFinished, this, [this](bool succeeded) {
            updateFlowItem();
            updateStatus();
            if (std::exchange(m_connectAfter, false) && succeeded && m_session &&
                m_session->state() != ClientState::Connected && m_session->state() != ClientState::Connecting)
                m_session->connectToServer();
        });
        connect(m_progress, &SignInProgress::flowsCleared, this, &SignInPanel::rebuild);
        connect(m_progress, &SignInProgress::stepAdded, this, [this](int index) {
            const QList<AuthStep> steps = m_progress->steps(currentFlow);
            if (!m_flowItem || index >= steps.size())
                return;
            auto *item = new QTreeWidgetItem(m_flowItem);
            item->setData(0, FlowRole, currentFlow);
            item->setData(0, StepRole, index);
            fillStepItem(item, steps.at(index));
            m_steps->resizeColumnToContents(0);
            m_steps->setCurrentItem(item);
            m_steps->scrollToItem(item);
            updateStatus();
        });
        connect(m_progress, &SignInProgress::stepChanged, this, [this](int index) {
            const QList<AuthStep> steps = m_progress->steps(currentFlow);
            if (!m_flowItem || index >= m_flowItem->childCount() || index >= steps.size())
                return;
            QTreeWidgetItem *item = m_flowItem->child(index);
            fillStepItem(item, steps.at(index));
            if (m_steps->currentItem() == item)
                showDetail();
            updateStatus(); // "Waiting for the browser", and the buttons that go with it
        });
    }
    rebuild();
}

QTreeWidgetItem *SignInPanel::addFlowItem(const SignInFlow &flow, int flowIndex)
{
    auto *group = new QTreeWidgetItem(m_steps);
    group->setText(0, flow.title);
    group->setText(1, flow.running     ? tr("running…")
                      : flow.succeeded ? (flow.refreshOnly ? tr("refreshed") : tr("signed in"))
                                       : flow.error);
    group->setToolTip(1, group->text(1));
    QFont bold = group->font(0);
    bold.setBold(true);
    group->setFont(0, bold);
    group->setData(0, FlowRole, flowIndex);
    group->setData(0, StepRole, -1);
    for (int i = 0; i < flow.steps.size(); ++i) {
        auto *item = new QTreeWidgetItem(group);
        item->setData(0, FlowRole, flowIndex);
        item->setData(0, StepRole, i);
        fillStepItem(item, flow.steps.at(i));
    }
    return group;
}

void SignInPanel::fillStepItem(QTreeWidgetItem *item, const AuthStep &step) const
{
    const StatusColors colors(palette());
    item->setText(0, step.title);
    item->setIcon(0, stateIcon(step.state, colors, devicePixelRatioF()));
    item->setData(0, StateRole, int(step.state));
    item->setToolTip(0, AuthStep::stateName(step.state));
    const QString found =
        step.state == AuthStep::State::Failed && !step.error.isEmpty() ? step.error : step.summary;
    item->setText(1, found);
    item->setToolTip(1, found);
    // Only a failure is coloured: the rest follows the palette, light or dark, as it changes.
    if (step.state == AuthStep::State::Failed)
        item->setForeground(1, colors.failed());
    else
        item->setData(1, Qt::ForegroundRole, QVariant());
}

void SignInPanel::rebuild()
{
    m_steps->clear();
    m_flowItem = nullptr;
    if (available()) {
        const QList<SignInFlow> past = m_progress->pastFlows();
        for (int f = 0; f < past.size(); ++f)
            addFlowItem(past.at(f), f);
        if (const std::optional<SignInFlow> flow = m_progress->currentFlow()) {
            m_flowItem = addFlowItem(*flow, currentFlow);
            m_flowItem->setExpanded(true);
            // The step to look at: where it failed, else the last.
            QTreeWidgetItem *focus =
                m_flowItem->childCount() ? m_flowItem->child(m_flowItem->childCount() - 1) : m_flowItem;
            for (int i = 0; i < flow->steps.size(); ++i) {
                if (flow->steps.at(i).state == AuthStep::State::Failed) {
                    focus = m_flowItem->child(i);
                    break;
                }
            }
            m_steps->setCurrentItem(focus);
        }
    }
    if (m_steps->topLevelItemCount() > 0) // an empty tree has nothing to measure
        m_steps->resizeColumnToContents(0);
    updateStatus();
    showDetail();
}

void SignInPanel::updateFlowItem()
{
    const std::optional<SignInFlow> flow = m_progress ? m_progress->currentFlow() : std::nullopt;
    if (!m_flowItem || !flow)
        return;
    m_flowItem->setText(1, flow->running     ? tr("running…")
                           : flow->succeeded ? (flow->refreshOnly ? tr("refreshed") : tr("signed in"))
                                             : flow->error);
    m_flowItem->setToolTip(1, m_flowItem->text(1));
    for (int i = 0; i < m_flowItem->childCount() && i < flow->steps.size(); ++i)
        fillStepItem(m_flowItem->child(i), flow->steps.at(i));
    // A step added after the end (the first authorized request) adds a row.
    while (m_flowItem->childCount() < flow->steps.size()) {
        const int i = m_flowItem->childCount();
        auto *item = new QTreeWidgetItem(m_flowItem);
        item->setData(0, FlowRole, currentFlow);
        item->setData(0, StepRole, i);
        fillStepItem(item, flow->steps.at(i));
    }
    showDetail();
}

void SignInPanel::updateStatus()
{
    const bool a = available();
    const bool running = a && m_progress->isRunning();
    const bool paused = a && m_progress->isPaused();
    m_signInButton->setEnabled(a && !running);
    m_machine->setEnabled(a && !running);
    m_signInButton->setText(a && m_progress->isSignedIn() ? tr("Sign in again") : tr("Sign in"));
    m_signOut->setEnabled(a && m_progress->hasAnything());
    // Not signed in, what is left to forget is a registration or a refused token: said so.
    const bool signedIn = a && m_progress->isSignedIn();
    m_signOut->setText(signedIn || !m_signOut->isEnabled() ? tr("Sign out\u2026") : tr("Forget\u2026"));
    m_signOut->setToolTip(signedIn || !m_signOut->isEnabled()
                              ? tr("Forget the server's tokens, here and in the keychain")
                              : tr("Forget what the last sign-in left (its client registration, any "
                                   "token), here and in the keychain"));
    m_stepped->setEnabled(a);
    m_continue->setVisible(a && (m_progress->isStepped() || paused));
    m_continue->setEnabled(paused);
    m_cancel->setEnabled(running);
    const bool waiting = a && m_progress->waitingUrl().isValid();
    m_openAgain->setVisible(waiting);
    m_copyLink->setVisible(waiting);
    m_reveal->setEnabled(a);
    if (!m_session) {
        m_status->setText(tr("Choose a server to see its sign-in."));
    } else if (!a) {
        m_status->setText(tr("%1 runs as a local process: sign-in is for servers reached over HTTP.")
                              .arg(m_session->displayName()));
    } else if (!running && !m_formProblem.isEmpty()) {
        m_status->setText(tr("Machine sign-in did not start: %1").arg(m_formProblem));
    } else if (!running && !m_progress->isLoaded()) {
        m_status->setText(tr("Not signed in yet. Folio signs in when %1 asks for it (an HTTP 401), or now "
                             "with Sign in.")
                              .arg(m_session->displayName()));
    } else {
        m_status->setText(m_progress->statusText(QDateTime::currentMSecsSinceEpoch()));
    }
    if (a && m_progress->isCounting())
        m_tick->start();
    else
        m_tick->stop();
}

QString SignInPanel::statusText() const
{
    return m_status->text();
}

void SignInPanel::showDetail()
{
    const bool a = available();
    QTreeWidgetItem *item = m_steps->currentItem();
    if (!a || !item) {
        m_detail->setHtml(
            a ? tr("<p>No sign-in yet. Its steps appear here as they happen: the challenge, the "
                   "metadata of the server and of its authorization server, the client "
                   "registration, the browser, the callback, the token, and the first "
                   "request that carried it.</p><p>Tick <i>Step through</i> to pause after "
                   "each one.</p>")
              : QString());
        return;
    }
    const int flowIndex = item->data(0, FlowRole).toInt();
    const int stepIndex = item->data(0, StepRole).toInt();
    const QList<AuthStep> steps = m_progress->steps(flowIndex);
    if (stepIndex < 0 || stepIndex >= steps.size()) {
        // A flow's own row: its steps in one line each.
        QString html = QStringLiteral("<h3 style='margin:0'>%1</h3><p>%2</p><ol>")
                           .arg(item->text(0).toHtmlEscaped(), item->text(1).toHtmlEscaped());
        for (const AuthStep &s : steps)
            html +=
                QStringLiteral("<li>%1 — %2</li>")
                    .arg(s.title.toHtmlEscaped(), (s.error.isEmpty() ? s.summary : s.error).toHtmlEscaped());
        m_detail->setHtml(html + QStringLiteral("</ol>"));
        m_reveal->setEnabled(false);
        return;
    }
    m_reveal->setEnabled(!steps.at(stepIndex).exchanges.isEmpty());
    const int scroll = m_detail->verticalScrollBar()->value();
    m_detail->setHtml(authStepHtml(steps.at(stepIndex), m_reveal->isChecked(), palette()));
    m_detail->verticalScrollBar()->setValue(scroll);
}

void SignInPanel::signIn()
{
    if (!available() || m_progress->isRunning())
        return;
    m_connectAfter = true;
    m_formProblem.clear();
    m_progress->signIn();
}

void SignInPanel::signInAsMachine()
{
    if (!available() || m_progress->isRunning())
        return;
    const QUrl url(m_progress->serverUrl());
    MachineSignInDialog dialog(MachineSignIn::remembered(url), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const MachineSignIn form = dialog.value();
    form.remember(url);
    signInAsMachine(form);
}

bool SignInPanel::signInAsMachine(const MachineSignIn &form)
{
    if (!available() || m_progress->isRunning())
        return false;
    QString problem;
    const std::optional<OAuthClientSettings> settings = form.settings(&problem);
    m_formProblem = settings ? QString() : problem;
    if (!settings) {
        updateStatus();
        return false;
    }
    m_connectAfter = true;
    m_progress->signInWith(*settings);
    return true;
}

void SignInPanel::signOut(bool confirm)
{
    if (!m_progress)
        return;
    if (confirm) {
        QMessageBox ask(
            QMessageBox::Question, tr("Sign Out"),
            tr("Sign out of %1?").arg(m_session ? m_session->displayName() : m_progress->serverUrl()),
            QMessageBox::Cancel, this);
        ask.setInformativeText(
            tr("Folio forgets its access and refresh tokens, here and in the keychain, and "
               "the sign-in steps shown here, and disconnects; connecting again signs in again."));
        QPushButton *out = ask.addButton(tr("Sign Out"), QMessageBox::DestructiveRole);
        ask.setDefaultButton(QMessageBox::Cancel);
        ask.setObjectName(QStringLiteral("confirmSignOut"));
        ask.exec();
        if (ask.clickedButton() != out)
            return;
    }
    m_connectAfter = false;
    m_progress->signOut();
    // Connected, its next request would sign in again at once: it disconnects instead, and the
    // next connect signs in.
    if (m_session && m_session->state() != ClientState::Disconnected)
        m_session->disconnectFromServer();
}

void SignInPanel::continueFlow()
{
    if (m_progress)
        m_progress->continueFlow();
}

void SignInPanel::cancel()
{
    m_connectAfter = false;
    if (m_progress)
        m_progress->cancel();
}

} // namespace folio
