#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio {

// An RFC 6570 URI template (a resource template's uriTemplate), for "Read from template…": its
// variables, and its expansion from string values. Levels 1-3 (simple {var}, {+var}, {#var},
// {.var}, {/var}, {;var}, {?a,b}, {&a}) and the level-4 prefix {var:3}; explode (*) reads like the
// plain form, since every value here is a string. A variable left empty is undefined: the RFC drops
// it (no "a=" in a query), which is what a form with an empty field means.
class UriTemplate
{
public:
    explicit UriTemplate(const QString &text = {});

    QString text() const { return m_text; }
    // Every variable name in the order of first appearance, each once.
    QStringList variables() const;
    // The operator a variable first appears with ("" for simple expansion, "+", "/", "?", …): what
    // a form says next to its field.
    QString operatorOf(const QString &variable) const;
    bool isValid() const { return m_error.isEmpty(); }
    // Why the template cannot be read (an unclosed brace, an unknown operator), else empty.
    QString error() const { return m_error; }

    QString expand(const QHash<QString, QString> &values) const;

    // Percent-encodes every byte of text's UTF-8 but the unreserved characters (and, when
    // allowReserved, the reserved ones and existing %XX triplets), as RFC 6570 section 3.2.1 says.
    static QString encode(const QString &text, bool allowReserved);

private:
    struct VarSpec
    {
        QString name;
        int prefix = -1; // {var:N}
        bool explode = false;
    };
    struct Part
    {
        QString literal; // when not an expression
        bool isExpression = false;
        QChar op; // '\0' for simple expansion
        QList<VarSpec> vars;
    };

    static Part literalPart(const QString &text);
    void parse();

    QString m_text;
    QList<Part> m_parts;
    QString m_error;
};

} // namespace folio
