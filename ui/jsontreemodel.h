#pragma once

#include <QAbstractItemModel>
#include <QJsonValue>
#include <QVector>

namespace folio {

// A JSON value as a read-only tree (key, value, type), so a list item, a schema or a decoded cursor
// can be read and copied without reading JSON text. Children are built when a branch is first
// asked for, so a large value costs only what is expanded.
class JsonTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, TypeColumn, ColumnCount };
    enum Roles {
        JsonValueRole = Qt::UserRole + 1, // QJsonValue of the node (as a QVariant)
        JsonPointerRole,                  // the node's RFC 6901 pointer from the root, e.g. "/tools/0/name"
        JsonTypeRole,                     // int(QJsonValue::Type)
    };

    explicit JsonTreeModel(QObject *parent = nullptr);

    // An object or array shows its members at the top level; a scalar shows as one row.
    void setJson(const QJsonValue &value);
    QJsonValue json() const { return m_root; }
    void clear() { setJson(QJsonValue(QJsonValue::Undefined)); }

    QJsonValue valueAt(const QModelIndex &index) const;
    QString pointerAt(const QModelIndex &index) const;

    // A one-line preview: "text" quoted, numbers as written, {…} and […] compact and elided.
    static QString preview(const QJsonValue &value, int maxChars = 120);
    static QString typeName(QJsonValue::Type type);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    struct Node
    {
        QString key; // member name, or the array index as text
        bool isIndex = false;
        QJsonValue value;
        int parent = -1; // -1: the hidden root
        int row = 0;
        QVector<int> children;
        bool populated = false;
    };

    void populate(int node) const;
    int nodeOf(const QModelIndex &index) const; // 0 (root) for an invalid index

    QJsonValue m_root;
    mutable QVector<Node> m_nodes; // 0 is the root
};

} // namespace folio
