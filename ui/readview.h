#pragma once

#include "statuscolors.h"

#include "pagerecord.h"

#include <QDialog>
#include <QHash>
#include <QJsonObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QCompleter;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QStringListModel;
class QTreeView;
class QVBoxLayout;

namespace folio {

class ArgumentCompleter;
class McpClient;
class ResourceReads;
class ServerSession;
class StatusColors;
struct ReadRecord;
class WrapLabel;

// A read's TTL as the page strip draws a chip's: the scope badge, then the bar (green and
// draining while fresh, amber when stale, grey once expired, striped while re-read, a dotted
// "no hints" track for the legacy era, a red outline when the read failed), then the countdown.
class ReadTtlBar : public QWidget
{
    Q_OBJECT
public:
    using Bar = StatusColors::TtlBar;
    struct Look
    {
        Bar bar = Bar::None;
        qreal remaining = 0; // the fresh bar's length, 0..1
        PageRecord::Scope scope = PageRecord::Scope::NotApplicable;
        QString text; // "fresh · expires in 12 s", "expired", "no hints (legacy)"
    };

    explicit ReadTtlBar(QWidget *parent = nullptr);

    // Shows row of reads (nothing when row < 0).
    void setRead(ResourceReads *reads, int row);
    Look look() const;
    // The same, for any read (the list's delegate draws it too).
    static Look lookOf(const ReadRecord &read, qint64 nowMonoMs);
    // The bar alone, in rect (vector shapes: crisp at any device pixel ratio).
    static void paintBar(QPainter *painter, const QRectF &rect, const Look &look, const StatusColors &colors,
                         qint64 animationMs);
    // Where the bar is drawn in this widget (tests sample its colour).
    QRect barRect() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QPointer<ResourceReads> m_reads;
    int m_row = -1;
};

// "Read from template…": a line edit per variable of a resource template's uriTemplate (RFC 6570),
// the URI it expands to, and completion through completion/complete (ref/resource) when the
// server offers it, fed into each field's QCompleter as the answers come.
class TemplateReadDialog : public QDialog
{
    Q_OBJECT
public:
    TemplateReadDialog(McpClient *client, const QJsonObject &resourceTemplate, QWidget *parent = nullptr);

    QString uriTemplate() const { return m_template; }
    QString uri() const;
    QLineEdit *field(const QString &variable) const { return m_fields.value(variable); }
    QCompleter *completer(const QString &variable) const;

private:
    void updateUri();
    void askCompletion(const QString &variable);

    QString m_template;
    QStringList m_variables;
    QHash<QString, QLineEdit *> m_fields;
    QHash<QString, QStringListModel *> m_completions;
    ArgumentCompleter *m_completer = nullptr;
    QLabel *m_uri;
    QLabel *m_completionNote;
    QPushButton *m_read;
};

// The resources read on one connection: a URI field to read any resource, the reads (one per URI),
// and the selected read: its contents (text as text, images shown, other blobs summarised with a
// Save… button), its cache hints exactly as received with the TTL counting down in the page
// strip's visual language, its findings and errors where they happened, Re-read and "Re-read when
// it expires". It only presents; ResourceReads reads and judges.
class ReadView : public QWidget
{
    Q_OBJECT
public:
    explicit ReadView(ServerSession *session, QWidget *parent = nullptr);

    ResourceReads *reads() const;
    // Reads uri (again, when it was read before) and shows it.
    void readUri(const QString &uri, const QString &uriTemplate = {});
    // Asks for a template's variables, then reads what it expands to.
    void readFromTemplate(const QJsonObject &resourceTemplate);
    void showRead(int row);
    int currentRow() const { return m_row; }

    // For tests and the screenshots: the parts a person reads.
    QLineEdit *uriField() const { return m_uriField; }
    ReadTtlBar *ttlBar() const { return m_ttl; }
    QLabel *stateLabel() const { return m_state; }
    QLabel *hintsLabel() const { return m_hints; }
    WrapLabel *errorLabel() const { return m_error; }
    QPushButton *rereadButton() const { return m_reread; }
    QCheckBox *rereadOnExpiryBox() const { return m_rereadOnExpiry; }
    QLabel *subscriptionLabel() const { return m_subscription; }
    QPushButton *closeButton() const { return m_close; }
    // Closes the shown read (Close, or Delete in the list): unsubscribed, its row gone.
    void closeCurrent();
    // The text of every content item shown, in order.
    QStringList shownTexts() const;

Q_SIGNALS:
    void statusMessage(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void updatePlaceholder();
    void hideEvent(QHideEvent *event) override;

private:
    void handleChanged(int row);
    void updateDetail();
    void rebuildContents();
    void updateTicking();
    void tick();
    QWidget *contentWidget(int index);

    QPointer<ServerSession> m_session;
    int m_row = -1;
    int m_contentsShownFor = -1; // the answer count the contents were built for
    QLineEdit *m_uriField;
    QPushButton *m_readButton;
    QTreeView *m_list; // a one-column tree: a list that fits its width
    QStackedWidget *m_detailStack;
    WrapLabel *m_empty;
    QWidget *m_detail;
    QLabel *m_title;
    ReadTtlBar *m_ttl;
    QLabel *m_state;
    QLabel *m_hints;
    QLabel *m_subscription;
    WrapLabel *m_notCached;
    WrapLabel *m_findings;
    WrapLabel *m_error;
    QPushButton *m_reread;
    QCheckBox *m_rereadOnExpiry;
    QPushButton *m_copyJson;
    QPushButton *m_close;
    QWidget *m_contents;
    QVBoxLayout *m_contentsLayout;
    QTimer m_tick; // repaints the countdown while a shown read is fresh or being read
};

} // namespace folio
