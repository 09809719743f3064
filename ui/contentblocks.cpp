#include "contentblocks.h"

#include "filechooser.h"
#include "fonts.h"
#include "mcperror.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeDatabase>
#include <QPixmap>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace folio {

namespace {

constexpr int maxImageWidth = 480;
constexpr int maxImageHeight = 360;
constexpr int maxShownText = 200000; // characters of one block shown; the Raw section has all

QByteArray decoded(const QJsonObject &block, const char *key)
{
    return QByteArray::fromBase64(block.value(QLatin1String(key)).toString().toLatin1());
}

// A server's text as shown: cut to maxShownText, with its hidden characters made visible.
QString shown(const QString &text)
{
    return text.size() > maxShownText ? terminalSafe(text.left(maxShownText)) +
                                            QStringLiteral("\n… (%1 characters in all)").arg(text.size())
                                      : terminalSafe(text);
}

QString fileNameFor(const QString &uri, const QString &mimeType, const QString &fallback)
{
    QString name = QUrl(uri).fileName();
    if (name.isEmpty()) {
        const QString suffix = QMimeDatabase().mimeTypeForName(mimeType).preferredSuffix();
        name = suffix.isEmpty() ? fallback : fallback + QLatin1Char('.') + suffix;
    }
    return name;
}

} // namespace

ContentBlocks::ContentBlocks(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(8);
}

void ContentBlocks::clear()
{
    while (m_layout->count() > 0) {
        QLayoutItem *item = m_layout->takeAt(0);
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    m_count = 0;
}

void ContentBlocks::setBlocks(const QJsonArray &blocks)
{
    clear();
    for (const QJsonValue &b : blocks) {
        QWidget *w = blockWidget(b.toObject());
        w->setObjectName(QStringLiteral("contentBlock"));
        w->setProperty("blockType", b.toObject().value(QStringLiteral("type")).toString());
        m_layout->addWidget(w);
        ++m_count;
    }
    if (blocks.isEmpty())
        m_layout->addWidget(caption(tr("No content blocks.")));
    applyColors();
}

QString ContentBlocks::summarize(const QJsonObject &block)
{
    const QString type = block.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("text"))
        return QStringLiteral("text (%n characters)")
            .replace(QStringLiteral("%n"),
                     QString::number(block.value(QStringLiteral("text")).toString().size()));
    if (type == QLatin1String("image") || type == QLatin1String("audio"))
        return QStringLiteral("%1: %2, %3")
            .arg(type, block.value(QStringLiteral("mimeType")).toString(QStringLiteral("(no MIME type)")),
                 McpError::sizeText(decoded(block, "data").size()));
    if (type == QLatin1String("resource")) {
        const QJsonObject r = block.value(QStringLiteral("resource")).toObject();
        const QString mime = r.value(QStringLiteral("mimeType")).toString(QStringLiteral("(no MIME type)"));
        if (r.contains(QStringLiteral("blob")))
            return QStringLiteral("resource %1: %2, %3")
                .arg(r.value(QStringLiteral("uri")).toString(), mime,
                     McpError::sizeText(decoded(r, "blob").size()));
        return QStringLiteral("resource %1: %2, %3 characters")
            .arg(r.value(QStringLiteral("uri")).toString(), mime,
                 QString::number(r.value(QStringLiteral("text")).toString().size()));
    }
    if (type == QLatin1String("resource_link"))
        return QStringLiteral("link %1 (%2)%3")
            .arg(block.value(QStringLiteral("uri")).toString(),
                 block.value(QStringLiteral("name")).toString(),
                 block.contains(QStringLiteral("mimeType"))
                     ? QStringLiteral(", ") + block.value(QStringLiteral("mimeType")).toString()
                     : QString());
    return QStringLiteral("a block of type %1").arg(type.isEmpty() ? QStringLiteral("(none)") : type);
}

QWidget *ContentBlocks::caption(const QString &text)
{
    auto *label = new WrapLabel;
    label->setObjectName(QStringLiteral("blockCaption"));
    label->setTextFormat(Qt::PlainText);
    label->setText(terminalSafe(text));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QWidget *ContentBlocks::saveButton(const QByteArray &bytes, const QString &suggestedName,
                                   const QString &mimeType)
{
    auto *save = new QPushButton(tr("Save…"));
    save->setObjectName(QStringLiteral("saveBlock"));
    save->setToolTip(tr("Save the %1 bytes (%2) to a file").arg(QString::number(bytes.size()), mimeType));
    connect(save, &QPushButton::clicked, this, [this, bytes, suggestedName] {
        if (const QString said = FileChooser::saveBytes(this, tr("Save"), bytes, suggestedName);
            !said.isEmpty())
            Q_EMIT statusMessage(said);
    });
    return save;
}

QWidget *ContentBlocks::blockWidget(const QJsonObject &block)
{
    const QString type = block.value(QStringLiteral("type")).toString();
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    auto body = [](const QString &text) {
        auto *label = new WrapLabel;
        label->setObjectName(QStringLiteral("blockText"));
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        label->setText(shown(text));
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        return label;
    };
    if (type == QLatin1String("text")) {
        v->addWidget(body(block.value(QStringLiteral("text")).toString()));
    } else if (type == QLatin1String("image")) {
        const QByteArray bytes = decoded(block, "data");
        const QString mime = block.value(QStringLiteral("mimeType")).toString();
        QImage image;
        image.loadFromData(bytes);
        v->addWidget(caption(
            summarize(block) +
            (image.isNull() ? tr(" — does not decode as an image")
                            : QStringLiteral(" — %1×%2")
                                  .arg(QString::number(image.width()), QString::number(image.height())))));
        if (!image.isNull()) {
            auto *picture = new QLabel;
            picture->setObjectName(QStringLiteral("blockImage"));
            // Large ones scaled down to fit; icon-sized ones (a badge, 16×16) up to be seen, pixel
            // for pixel.
            QImage shownImage = image;
            if (image.width() > maxImageWidth || image.height() > maxImageHeight)
                shownImage = image.scaled(QSize(maxImageWidth, maxImageHeight), Qt::KeepAspectRatio,
                                          Qt::SmoothTransformation);
            else if (image.width() < 48 && image.height() < 48)
                shownImage = image.scaled(image.size() * (64 / qMax(image.width(), image.height())),
                                          Qt::KeepAspectRatio, Qt::FastTransformation);
            picture->setPixmap(QPixmap::fromImage(shownImage));
            picture->setAlignment(Qt::AlignLeft);
            v->addWidget(picture);
        }
        auto *h = new QHBoxLayout;
        h->addWidget(saveButton(bytes, fileNameFor(QString(), mime, QStringLiteral("image")), mime));
        h->addStretch();
        v->addLayout(h);
    } else if (type == QLatin1String("audio")) {
        const QByteArray bytes = decoded(block, "data");
        const QString mime = block.value(QStringLiteral("mimeType")).toString();
        auto *h = new QHBoxLayout;
        h->addWidget(caption(summarize(block)), 1);
        h->addWidget(saveButton(bytes, fileNameFor(QString(), mime, QStringLiteral("audio")), mime));
        v->addLayout(h);
    } else if (type == QLatin1String("resource")) {
        const QJsonObject r = block.value(QStringLiteral("resource")).toObject();
        v->addWidget(caption(summarize(block)));
        if (r.contains(QStringLiteral("blob"))) {
            const QByteArray bytes = decoded(r, "blob");
            const QString mime = r.value(QStringLiteral("mimeType")).toString();
            auto *h = new QHBoxLayout;
            h->addWidget(saveButton(
                bytes,
                fileNameFor(r.value(QStringLiteral("uri")).toString(), mime, QStringLiteral("resource")),
                mime));
            h->addStretch();
            v->addLayout(h);
        } else {
            v->addWidget(body(r.value(QStringLiteral("text")).toString()));
        }
    } else if (type == QLatin1String("resource_link")) {
        QStringList parts;
        parts << tr("Link: %1").arg(block.value(QStringLiteral("name")).toString());
        parts << block.value(QStringLiteral("uri")).toString();
        if (block.contains(QStringLiteral("mimeType")))
            parts << block.value(QStringLiteral("mimeType")).toString();
        if (block.contains(QStringLiteral("description")))
            parts << block.value(QStringLiteral("description")).toString();
        v->addWidget(caption(parts.join(QStringLiteral(" · "))));
    } else {
        v->addWidget(caption(summarize(block)));
        auto *raw = body(QString::fromUtf8(QJsonDocument(block).toJson(QJsonDocument::Indented)));
        raw->setFont(fixedFont());
        v->addWidget(raw);
    }
    return w;
}

void ContentBlocks::applyColors()
{
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, StatusColors(palette()).mutedText());
    const QList<QWidget *> captions = findChildren<QWidget *>(QStringLiteral("blockCaption"));
    for (QWidget *c : captions)
        c->setPalette(muted);
}

void ContentBlocks::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

} // namespace folio
