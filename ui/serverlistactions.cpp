#include "serverlistactions.h"

#include "importdialog.h"
#include "serverdialog.h"
#include "serverhistory.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "settingskeys.h"
#include "signinstore.h"

#include <QAction>
#include <QActionGroup>
#include <QDesktopServices>
#include <QDir>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QUrl>

namespace folio {

ServerListActions::ServerListActions(ServerListModel *servers, QListView *list, QWidget *window)
    : QObject(window)
    , m_servers(servers)
    , m_list(list)
    , m_window(window)
    , m_add(new QAction(tr("&Add Server…"), window))
    , m_import(new QAction(tr("&Import Servers…"), window))
    , m_edit(new QAction(tr("&Edit…"), window))
    , m_remove(new QAction(tr("&Remove"), window))
    , m_trust(new QAction(tr("&Trust Current Definitions…"), window))
{
    m_add->setShortcut(QKeySequence::New);
    m_import->setShortcut(QKeySequence(tr("Ctrl+I")));
    m_edit->setShortcut(QKeySequence(Qt::Key_F2));
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetShortcut); // Delete in a text field deletes text
    connect(m_add, &QAction::triggered, this, &ServerListActions::addServer);
    connect(m_import, &QAction::triggered, this, &ServerListActions::importServers);
    connect(m_edit, &QAction::triggered, this, &ServerListActions::editServer);
    connect(m_remove, &QAction::triggered, this, &ServerListActions::removeServer);
    m_trust->setToolTip(tr("Take the tools, prompts and templates this server has now as the ones it "
                           "is trusted with: the definition-changed findings go"));
    connect(m_trust, &QAction::triggered, this, [this] { trustDefinitions(); });
}

void ServerListActions::select(int row)
{
    m_list->setCurrentIndex(m_servers->index(row));
}

void ServerListActions::updateActions()
{
    const int row = m_list->currentIndex().row();
    ServerSession *s = m_servers->session(row);
    m_edit->setEnabled(s && !m_servers->isDemo(row) && !s->isReplay());
    m_remove->setEnabled(s && !m_servers->isDemo(row));
    m_trust->setEnabled(s && s->hasDrift());
    if (m_historyFolder)
        m_historyFolder->setEnabled(s && s->pinsDefinitions());
}

void ServerListActions::trustDefinitions(bool confirm)
{
    ServerSession *s = m_servers->session(m_list->currentIndex().row());
    if (!s || !s->hasDrift())
        return;
    const QString name = s->config().name;
    if (confirm) {
        QMessageBox ask(QMessageBox::Question, tr("Trust Current Definitions"),
                        tr("Trust the definitions %1 has now?").arg(name), QMessageBox::Cancel, m_window);
        const int changes = int(s->driftChanges().size());
        ask.setInformativeText(
            tr("%n change(s) since the trusted version will no longer be reported.", nullptr, changes));
        QPushButton *trust = ask.addButton(tr("Trust"), QMessageBox::AcceptRole);
        ask.setDefaultButton(QMessageBox::Cancel);
        ask.setObjectName(QStringLiteral("confirmTrust"));
        ask.exec();
        if (ask.clickedButton() != trust)
            return;
    }
    QString error;
    if (s->trustDefinitions(&error))
        Q_EMIT statusMessage(tr("%1's definitions as they are now are the trusted ones.").arg(name));
    else
        QMessageBox::warning(m_window, tr("Trust Current Definitions"), error);
    updateActions();
}

void ServerListActions::addHistoryMenu(QMenu *server)
{
    QMenu *history = server->addMenu(tr("Snapshot &History"));
    history->setToolTipsVisible(true);
    auto *group = new QActionGroup(history);
    const int saved = ServerHistory::keep();
    for (const int keep : {0, 3, 5, 10, 20}) {
        QAction *a = history->addAction(keep == 0 ? tr("&Keep None") : tr("Keep the Last %1").arg(keep));
        a->setCheckable(true);
        a->setChecked(keep == saved);
        a->setToolTip(tr("A saved server's lists, once walked to their end on a connect, are kept as a "
                         "snapshot in your data folder, with no secrets"));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, keep] {
            ServerHistory::setKeep(keep);
            Q_EMIT statusMessage(keep == 0
                                     ? tr("No snapshots are kept from the next connect on; those kept stay.")
                                     : tr("Applies at the next connect."));
        });
    }
    history->addSeparator();
    m_historyFolder = history->addAction(tr("&Show This Server's Snapshots"), this, [this] {
        ServerSession *s = m_servers->session(m_list->currentIndex().row());
        if (!s)
            return;
        const QString folder = ServerHistory::folder(s->config().name);
        if (!QDir(folder).exists()) {
            Q_EMIT statusMessage(tr("No snapshot of %1 is kept yet.").arg(s->config().name));
            return;
        }
        QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
    });
}

void ServerListActions::addWalkOnConnectMenu(QMenu *list)
{
    QMenu *onConnect = list->addMenu(tr("Walk on &Connect"));
    auto *group = new QActionGroup(onConnect);
    const auto saved = ServerSession::WalkOnConnect(
        QSettings().value(SettingsKey::WalkOnConnect, int(ServerSession::WalkOnConnect::Whole)).toInt());
    m_servers->setWalkOnConnect(saved);
    for (const auto &[mode, label] :
         {std::pair{ServerSession::WalkOnConnect::FirstPages, tr("Every List's &First Page")},
          std::pair{ServerSession::WalkOnConnect::Whole, tr("Every List to Its &End (within the page cap)")},
          std::pair{ServerSession::WalkOnConnect::OnDemand, tr("&Only Lists I Open")}}) {
        QAction *a = onConnect->addAction(label);
        a->setCheckable(true);
        a->setChecked(mode == saved);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode = mode] {
            QSettings().setValue(SettingsKey::WalkOnConnect, int(mode));
            m_servers->setWalkOnConnect(mode);
            Q_EMIT statusMessage(tr("Applies at the next connect."));
        });
    }
}

void ServerListActions::addServer()
{
    ServerDialog dialog(m_window);
    ServerConfig c;
    c.nameFromServer = true; // unless the user names it
    dialog.setConfig(c);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ServerConfig config = dialog.config();
    config.name = m_servers->uniqueName(config.name);
    select(m_servers->addServer(config)); // it saves the token to the keychain
    Q_EMIT statusMessage(tr("Added %1. Connect with Ctrl+Return.").arg(config.name));
}

void ServerListActions::editServer()
{
    const int row = m_list->currentIndex().row();
    ServerSession *s = m_servers->session(row);
    if (!s || m_servers->isDemo(row))
        return;
    ServerDialog dialog(m_window);
    dialog.setConfig(s->config());
    if (dialog.exec() != QDialog::Accepted)
        return;
    ServerConfig config = dialog.config();
    if (config.nameFromServer && s->config().nameFromServer)
        config.name = s->config().name; // still unnamed: the keychain token stays under its key
    else if (config.name != s->config().name)
        config.name = m_servers->uniqueName(config.name);
    m_servers->updateServer(row, config); // it saves or removes the token in the keychain
    Q_EMIT statusMessage(tr("Saved %1; the change applies at the next connect.").arg(config.name));
}

void ServerListActions::removeServer()
{
    const int row = m_list->currentIndex().row();
    ServerSession *s = m_servers->session(row);
    if (!s || m_servers->isDemo(row))
        return;
    const QString name = s->config().name;
    // Nothing else in the window destroys what the user made: this asks first, Cancel the default.
    QMessageBox ask(QMessageBox::Question, tr("Remove Server"), tr("Remove %1 from the list?").arg(name),
                    QMessageBox::Cancel, m_window);
    ask.setInformativeText(
        s->config().tokenInKeychain ? tr("Its settings and the token saved in the keychain are deleted.")
        : s->signIn() ? tr("Its settings and its sign-in (tokens and client registrations, in the "
                           "keychain) are deleted.")
                      : tr("Its settings are deleted."));
    QPushButton *remove = ask.addButton(tr("Remove"), QMessageBox::DestructiveRole);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.setObjectName(QStringLiteral("confirmRemove"));
    ask.exec();
    if (ask.clickedButton() != remove)
        return;
    if (SignInStore *signIn = s->signIn()) // the model removes the token and env secrets
        signIn->forget();
    Q_EMIT removing(s);
    m_servers->removeServer(row);
    Q_EMIT statusMessage(tr("Removed %1.").arg(name));
}

void ServerListActions::importServers()
{
    ImportDialog dialog(m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    int last = -1;
    const QList<ServerConfig> configs = dialog.selected();
    for (ServerConfig c : configs) {
        c.name = m_servers->uniqueName(c.name);
        last = m_servers->addServer(c);
    }
    if (last >= 0)
        select(last);
    Q_EMIT statusMessage(tr("Imported %n server(s). Nothing was started.", nullptr, int(configs.size())));
}

} // namespace folio
