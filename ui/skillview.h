#pragma once

#include "skills.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace folio {

class ServerSession;
class WrapLabel;

// One skill (SEP-2640) as its server lists it, in a window of its own: its name, description and
// frontmatter, and its files with the size and digest each must have. Nothing of it is read until
// Load (Ctrl+Return): then each file is read and checked (SkillLoad) — size, digest, and SKILL.md's
// frontmatter against the entry's — its verdict shown beside it, and the SKILL.md text shown only
// once it is verified. A skill that fails says where, in the failure colour. Open Folder (Ctrl+B)
// walks its folder in the server's window, where a server that reads directories lists what is in it.
class SkillView : public QWidget
{
    Q_OBJECT
public:
    SkillView(ServerSession *session, const SkillEntry &entry, QWidget *parent = nullptr);

    const SkillEntry &entry() const { return m_entry; }
    SkillLoad *load() const { return m_load; }
    QPushButton *loadButton() const { return m_loadButton; }
    QPushButton *folderButton() const { return m_folderButton; }
    QTreeWidget *filesTree() const { return m_files; }
    WrapLabel *outcomeLabel() const { return m_outcome; }
    QPlainTextEdit *skillText() const { return m_text; }
    // Shows it as a window over parent's, deleted when closed (Esc, Ctrl+W).
    void showAsWindow(QSize size);
    void startLoad();
    // Opens the skill's folder in the server's window: its resources/directory/read, walked page
    // by page in a tab of its own (ServerSession::openList).
    void openFolder();

Q_SIGNALS:
    void statusMessage(const QString &message);

private:
    void updateFiles();
    void changeEvent(QEvent *event) override;

    QPointer<ServerSession> m_session;
    SkillEntry m_entry;
    QPointer<SkillLoad> m_load;
    WrapLabel *m_description;
    WrapLabel *m_frontmatter;
    QTreeWidget *m_files;
    QPushButton *m_loadButton;
    QPushButton *m_folderButton;
    WrapLabel *m_outcome;
    QPlainTextEdit *m_text;
};

} // namespace folio
