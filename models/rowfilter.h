#pragma once

#include "rowstore.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <thread>

namespace folio {

// Which rows of a RowStore hold a needle: each row's stored JSON text is searched, case-insensitively,
// on a worker thread over a snapshot of the pages (their texts are implicitly shared, so taking it
// copies no text), so that typing over a million rows never blocks the GUI thread. A newer needle
// bumps the generation and the older search's result is dropped. Rows that arrive while a needle
// is set are matched as they arrive; a change anywhere else (a refetch, a restart) searches again.
class RowFilter : public QObject
{
    Q_OBJECT
public:
    // One needle against one row's text. The raw bytes are searched (ASCII letters folded; other
    // characters through QString's case folding, only for rows that have any); rows whose text has
    // a backslash are also searched in their decoded strings, so that "é" finds "\u00e9" and a
    // quote finds \".
    class Matcher
    {
    public:
        explicit Matcher(const QString &needle);
        bool matches(QByteArrayView itemJson) const;

    private:
        bool matchesRaw(QByteArrayView text) const;
        bool matchesDecoded(QByteArrayView text) const;

        QString m_needle;
        QByteArray m_folded; // the needle in UTF-8, ASCII letters in lower case
        bool m_ascii = true;
    };

    static constexpr int DefaultDebounceMs = 150;

    explicit RowFilter(RowStore *rows, QObject *parent = nullptr);
    ~RowFilter() override; // stops the worker and waits for it

    // Searches for needle once it has not changed for debounceMs(); an empty needle applies at once
    // (every row shows again).
    void setNeedle(const QString &needle);
    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
    int debounceMs() const { return m_debounce.interval(); }

    // The needle whose result matches() holds; empty when no filter is applied.
    QString needle() const { return m_needle; }
    bool isActive() const { return !m_needle.isEmpty(); }
    // A needle is waiting out the debounce or being searched.
    bool isPending() const { return m_debounce.isActive() || m_searching; }
    // The rows that hold needle(), ascending.
    const QList<int> &matches() const { return m_matches; }
    int generation() const { return m_generation.load(); }

Q_SIGNALS:
    // matches() was replaced as a whole: a search finished, or the needle was cleared.
    void matchesReset();
    // Rows that arrived at the end of the store match: appended to matches().
    void rowsMatched(const QList<int> &rows);
    void pendingChanged(bool pending);

private:
    struct PageItems
    {
        ItemTexts items;
        int firstRow = 0;
    };
    void applyNeedle();
    void startSearch();
    void stopWorker();
    void handleResult(int generation, const QList<int> &matches, int coveredRows);
    void scheduleCatchUp();
    void catchUp();
    void setSearching(bool searching);
    QList<int> matchRows(int first, int last) const; // on the GUI thread: a few new pages

    RowStore *m_rows;
    QTimer m_debounce;
    QString m_pendingNeedle;
    QString m_needle;
    QList<int> m_matches;
    int m_coveredRows = 0; // rows [0, m_coveredRows) were searched for m_needle
    bool m_searching = false;
    bool m_searchAgain = false; // rows changed other than at the end
    bool m_catchUpQueued = false;
    std::atomic<int> m_generation{0};
    std::thread m_worker;
};

} // namespace folio
