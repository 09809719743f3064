#include "frontmatter.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <yaml.h>

#include <cmath>
#include <memory>

namespace folio::Frontmatter {

namespace {

// YAML 1.2 core schema: what a plain (unquoted) scalar is.
QJsonValue plainScalar(const QString &text)
{
    static const QRegularExpression integer(QStringLiteral("^[-+]?[0-9]+$"));
    static const QRegularExpression octal(QStringLiteral("^0o[0-7]+$"));
    static const QRegularExpression hex(QStringLiteral("^0x[0-9a-fA-F]+$"));
    static const QRegularExpression real(
        QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    if (text.isEmpty() || text == QLatin1String("~") || text == QLatin1String("null") ||
        text == QLatin1String("Null") || text == QLatin1String("NULL"))
        return QJsonValue::Null;
    if (text == QLatin1String("true") || text == QLatin1String("True") || text == QLatin1String("TRUE"))
        return true;
    if (text == QLatin1String("false") || text == QLatin1String("False") || text == QLatin1String("FALSE"))
        return false;
    bool ok = false;
    if (integer.match(text).hasMatch()) {
        const double v = text.toDouble(&ok);
        if (ok)
            return v;
    }
    if (octal.match(text).hasMatch()) {
        const qint64 v = text.mid(2).toLongLong(&ok, 8);
        if (ok)
            return double(v);
    }
    if (hex.match(text).hasMatch()) {
        const qint64 v = text.mid(2).toLongLong(&ok, 16);
        if (ok)
            return double(v);
    }
    if (real.match(text).hasMatch()) {
        const double v = text.toDouble(&ok);
        if (ok && std::isfinite(v))
            return v;
    }
    // .inf and .nan have no JSON form: they stay text, which compares unequal to any JSON number.
    return text;
}

struct Walk
{
    explicit Walk(yaml_document_t *document)
        : doc(document)
    {}
    yaml_document_t *doc;
    int nodes = 0;
    QString error;

    QJsonValue convert(yaml_node_t *node, int depth)
    {
        if (!node || !error.isEmpty())
            return {};
        if (depth > maxDepth) {
            error = QStringLiteral("the frontmatter nests deeper than %1 levels").arg(maxDepth);
            return {};
        }
        if (++nodes > maxNodes) {
            error =
                QStringLiteral("the frontmatter holds more than %1 values (aliases expanded)").arg(maxNodes);
            return {};
        }
        switch (node->type) {
        case YAML_SCALAR_NODE: {
            const QString text = QString::fromUtf8(reinterpret_cast<const char *>(node->data.scalar.value),
                                                   qsizetype(node->data.scalar.length));
            if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
                return plainScalar(text);
            return text;
        }
        case YAML_SEQUENCE_NODE: {
            QJsonArray array;
            for (yaml_node_item_t *item = node->data.sequence.items.start;
                 item < node->data.sequence.items.top; ++item) {
                array.append(convert(yaml_document_get_node(doc, *item), depth + 1));
                if (!error.isEmpty())
                    return {};
            }
            return array;
        }
        case YAML_MAPPING_NODE: {
            QJsonObject object;
            for (yaml_node_pair_t *pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top;
                 ++pair) {
                const QJsonValue key = convert(yaml_document_get_node(doc, pair->key), depth + 1);
                const QJsonValue value = convert(yaml_document_get_node(doc, pair->value), depth + 1);
                if (!error.isEmpty())
                    return {};
                // A key that is not text (a number, null) is written as YAML printed it.
                const QString name = key.isString() ? key.toString() : key.toVariant().toString();
                object.insert(name, value);
            }
            return object;
        }
        case YAML_NO_NODE:
            break;
        }
        return {};
    }
};

} // namespace

std::optional<QString> block(const QString &markdown)
{
    QStringView text(markdown);
    if (text.startsWith(QChar(0xFEFF)))
        text = text.mid(1);
    static const QRegularExpression fence(
        QStringLiteral("^---\\r?\\n([\\s\\S]*?)\\r?\\n---[ \\t]*(?:\\r?\\n|$)"));
    const QRegularExpressionMatch m = fence.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1);
}

std::optional<QJsonObject> parse(const QString &markdown, QString *error)
{
    auto fail = [error](const QString &why) -> std::optional<QJsonObject> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const std::optional<QString> yamlText = block(markdown);
    if (!yamlText)
        return fail(QStringLiteral("it does not begin with a --- delimited YAML frontmatter block"));
    const QByteArray bytes = yamlText->toUtf8();
    if (bytes.size() > maxBytes)
        return fail(QStringLiteral("its frontmatter is over %1 KiB").arg(maxBytes / 1024));

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return fail(QStringLiteral("the YAML parser could not start"));
    const std::unique_ptr<yaml_parser_t, void (*)(yaml_parser_t *)> parserGuard(&parser, yaml_parser_delete);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char *>(bytes.constData()),
                                 size_t(bytes.size()));
    yaml_document_t document;
    if (!yaml_parser_load(&parser, &document)) {
        return fail(QStringLiteral("its frontmatter is not YAML: %1 (line %2)")
                        .arg(QString::fromUtf8(parser.problem ? parser.problem : "unknown error"))
                        .arg(parser.problem_mark.line + 1));
    }
    const std::unique_ptr<yaml_document_t, void (*)(yaml_document_t *)> documentGuard(&document,
                                                                                      yaml_document_delete);
    yaml_node_t *root = yaml_document_get_root_node(&document);
    if (!root || root->type != YAML_MAPPING_NODE)
        return fail(QStringLiteral("its frontmatter is not a YAML mapping"));
    Walk walk(&document);
    const QJsonValue value = walk.convert(root, 0);
    if (!walk.error.isEmpty())
        return fail(walk.error);
    return value.toObject();
}

QStringList differences(const QJsonObject &a, const QJsonObject &b)
{
    QSet<QString> keys;
    for (auto it = a.begin(); it != a.end(); ++it)
        keys.insert(it.key());
    for (auto it = b.begin(); it != b.end(); ++it)
        keys.insert(it.key());
    QStringList differ;
    for (const QString &key : std::as_const(keys)) {
        const QJsonValue va = a.contains(key) ? a.value(key) : QJsonValue(QJsonValue::Null);
        const QJsonValue vb = b.contains(key) ? b.value(key) : QJsonValue(QJsonValue::Null);
        if (va != vb)
            differ.append(key);
    }
    differ.sort();
    return differ;
}

} // namespace folio::Frontmatter
