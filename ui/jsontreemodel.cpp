#include "jsontreemodel.h"

#include "fonts.h"
#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio {

JsonTreeModel::JsonTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
    setJson(QJsonValue(QJsonValue::Undefined));
}

void JsonTreeModel::setJson(const QJsonValue &value)
{
    beginResetModel();
    m_root = value;
    m_nodes.clear();
    Node root;
    root.value = value;
    m_nodes.append(root);
    if (!value.isObject() && !value.isArray()) {
        // A scalar shows as one row under the hidden root; nothing at all when undefined.
        m_nodes[0].populated = true;
        if (!value.isUndefined()) {
            Node leaf;
            leaf.value = value;
            leaf.parent = 0;
            leaf.populated = true;
            m_nodes.append(leaf);
            m_nodes[0].children.append(1);
        }
    }
    endResetModel();
}

void JsonTreeModel::populate(int node) const
{
    if (m_nodes[node].populated)
        return;
    m_nodes[node].populated = true;
    const QJsonValue value = m_nodes[node].value;
    QVector<int> children;
    auto add = [this, node, &children](const QString &key, bool isIndex, const QJsonValue &v) {
        Node child;
        child.key = key;
        child.isIndex = isIndex;
        child.value = v;
        child.parent = node;
        child.row = int(children.size());
        child.populated = !v.isObject() && !v.isArray();
        children.append(int(m_nodes.size()));
        m_nodes.append(child);
    };
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            add(it.key(), false, it.value());
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            add(QString::number(i), true, a.at(i));
    }
    m_nodes[node].children = children;
}

int JsonTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? int(index.internalId()) : 0;
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0 || (parent.isValid() && parent.column() != 0))
        return {};
    const int p = nodeOf(parent);
    populate(p);
    if (row >= m_nodes[p].children.size())
        return {};
    return createIndex(row, column, quintptr(m_nodes[p].children.at(row)));
}

QModelIndex JsonTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int p = m_nodes[nodeOf(child)].parent;
    if (p <= 0)
        return {};
    return createIndex(m_nodes[p].row, 0, quintptr(p));
}

int JsonTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const int p = nodeOf(parent);
    populate(p);
    return int(m_nodes[p].children.size());
}

int JsonTreeModel::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    return ColumnCount;
}

bool JsonTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    const QJsonValue v = m_nodes[nodeOf(parent)].value;
    if (v.isObject())
        return !v.toObject().isEmpty();
    if (v.isArray())
        return !v.toArray().isEmpty();
    return !parent.isValid() && !m_nodes[0].children.isEmpty();
}

QString JsonTreeModel::typeName(QJsonValue::Type type)
{
    switch (type) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("boolean");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("undefined");
}

QString JsonTreeModel::preview(const QJsonValue &value, int maxChars)
{
    QString text;
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (d == double(qint64(d)) && qAbs(d) < 9e15)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 15);
    }
    case QJsonValue::String:
        text = QLatin1Char('"') + value.toString() + QLatin1Char('"');
        break;
    case QJsonValue::Array:
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
        if (value.toArray().size() > 1)
            text.prepend(QStringLiteral("(%1) ").arg(value.toArray().size()));
        break;
    case QJsonValue::Object:
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::Undefined:
        return {};
    }
    for (QChar &c : text) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
    }
    text = terminalSafe(text);
    if (text.size() > maxChars) {
        text.truncate(maxChars - 1);
        text.append(QChar(0x2026));
    }
    return text;
}

QVariant JsonTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node &node = m_nodes[nodeOf(index)];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return node.isIndex ? QStringLiteral("[%1]").arg(node.key) : oneLineSafe(node.key);
        case ValueColumn:
            return preview(node.value);
        case TypeColumn:
            return typeName(node.value.type());
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == ValueColumn) {
            const QString full = preview(node.value, 4000);
            return full.size() > 60 ? QVariant(full) : QVariant();
        }
        return {};
    case Qt::FontRole:
        if (index.column() == ValueColumn)
            return fixedFont();
        return {};
    case JsonValueRole:
        return QVariant::fromValue(node.value);
    case JsonPointerRole:
        return pointerAt(index);
    case JsonTypeRole:
        return int(node.value.type());
    default:
        return {};
    }
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    case TypeColumn:
        return tr("Type");
    }
    return {};
}

Qt::ItemFlags JsonTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!hasChildren(index.siblingAtColumn(0)) || index.column() != 0)
        f |= Qt::ItemNeverHasChildren;
    return f;
}

QJsonValue JsonTreeModel::valueAt(const QModelIndex &index) const
{
    return index.isValid() ? m_nodes[nodeOf(index)].value : m_root;
}

QString JsonTreeModel::pointerAt(const QModelIndex &index) const
{
    QStringList parts;
    for (int n = nodeOf(index); n > 0 && m_nodes[n].parent >= 0; n = m_nodes[n].parent) {
        if (m_nodes[n].parent == 0 && !m_root.isObject() && !m_root.isArray())
            break; // the single row of a scalar is the root itself
        QString key = m_nodes[n].key;
        key.replace(QLatin1Char('~'), QStringLiteral("~0")).replace(QLatin1Char('/'), QStringLiteral("~1"));
        parts.prepend(key);
    }
    return parts.isEmpty() ? QString() : QLatin1Char('/') + parts.join(QLatin1Char('/'));
}

} // namespace folio
