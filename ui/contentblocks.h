#pragma once

#include <QJsonArray>
#include <QWidget>

class QVBoxLayout;

namespace folio {

// MCP content blocks (a tool result's content, a prompt message's content) shown as a person reads
// them: text as is, images decoded and scaled to fit, audio and binary resources summarised (MIME
// type, size) with Save…, embedded text resources shown with their URI, resource links as their
// name, URI and MIME type; a block of a type Folio does not know as its JSON.
class ContentBlocks : public QWidget
{
    Q_OBJECT
public:
    explicit ContentBlocks(QWidget *parent = nullptr);

    void setBlocks(const QJsonArray &blocks);
    void clear();
    int blockCount() const { return m_count; }

    // One line per block, for a summary or the command line: "text (12 chars)", "image/png, 3 KiB".
    static QString summarize(const QJsonObject &block);

Q_SIGNALS:
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    QWidget *blockWidget(const QJsonObject &block);
    QWidget *caption(const QString &text);
    QWidget *saveButton(const QByteArray &bytes, const QString &suggestedName, const QString &mimeType);
    void applyColors();

    QVBoxLayout *m_layout;
    int m_count = 0;
};

} // namespace folio
