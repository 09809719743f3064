#pragma once

#include <QAbstractListModel>
#include <QDialog>

#include <functional>

class QLineEdit;
class QListView;

namespace folio {

// Find anything (Ctrl+K): one field over what the window holds — its actions, servers, lists,
// the items loaded in them and their findings. Typing narrows the entries by a fuzzy match (the
// letters in order, word starts and a run of letters first); Enter runs the chosen one, Esc
// closes. The palette only shows and filters: the window gives it the entries and what each does.
class CommandPalette : public QDialog
{
    Q_OBJECT
public:
    struct Entry
    {
        QString kind;   // "Action", "Server", "List", "Item", "Finding": shown muted on the right
        QString text;   // what is matched and shown
        QString detail; // shown after the text, muted (a shortcut, a list, a page); matched too
        std::function<void()> run;
    };
    // At most this many entries are shown for a query (the best first); a list of ten thousand
    // items is matched whole, but only this many rows are laid out.
    static constexpr int MaxShown = 200;

    explicit CommandPalette(QWidget *parent = nullptr);
    ~CommandPalette() override;

    void setEntries(QList<Entry> entries);
    // Opens the palette over the parent window's top, the field empty and focused.
    void popup();

    QLineEdit *field() const { return m_field; }
    QListView *list() const { return m_list; }
    // The entries shown for the current text, best first (tests read them).
    QStringList shownTexts() const;

    // How well query matches text: < 0 when it does not (every letter of query in order, case
    // aside); higher is better: runs of letters, word starts and an early start count.
    static int score(const QString &query, const QString &text);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    class Model;
    void refilter();
    void runCurrent();

    QLineEdit *m_field;
    QListView *m_list;
    Model *m_model;
    QList<Entry> m_entries;
};

} // namespace folio
