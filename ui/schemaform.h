#pragma once

#include "argumentsuggestions.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QWidget>

#include <memory>
#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QScrollArea;
class QStackedWidget;
class QToolButton;
class QVBoxLayout;

namespace folio {

struct SchemaField;

class WrapLabel;

// A form built from a JSON Schema object (a tool's inputSchema, an elicitation's requestedSchema):
// one field per property, required ones marked "*", strings as line edits, integers as spin boxes
// ("(not set)" below the range when optional), numbers as line edits, booleans as check boxes (a
// three-way choice when optional), enums (and oneOf/anyOf of consts) as combo boxes, defaults
// pre-filled, nested objects as groups (optional ones to be ticked), arrays of a plain item schema
// as rows with Add and Remove, local $refs resolved (never fetched), descriptions as hints and
// tooltips. What the form cannot hold (anyOf of shapes, arrays of arrays, …) is a one-line JSON
// field. Beside it, a JSON editor of the whole value (Form | JSON), kept in sync both ways; the
// form refuses to take over values it could not show exactly, and says where. A text or number
// field suggests (a completer; Down shows them all) what ArgumentSuggestions knows of it: its
// schema's enum, const, examples and default, and for a top-level argument the values given it
// before, once setSuggestions() says whose they are and rememberValues() is called on each use.
class SchemaForm : public QWidget
{
    Q_OBJECT
public:
    explicit SchemaForm(QWidget *parent = nullptr);
    ~SchemaForm() override;

    // Builds the form; values start at the schema's defaults.
    void setSchema(const QJsonObject &schema);
    // Whose arguments these are, for the values given before (by default none are remembered).
    void setSuggestions(const ArgumentSuggestions &suggestions);
    // Remembers the values as they are now (a call was sent with them), for this form's fields
    // and every later form with the same suggestions.
    void rememberValues();
    // What a top-level text or number field suggests now; empty for another field.
    QStringList suggestionsFor(const QString &argument) const;
    QJsonObject schema() const { return m_schema; }
    // Whether the schema has no properties to show (a tool without arguments).
    bool isEmpty() const;

    // The arguments as the form (or the JSON editor, while it is shown) holds them: members left
    // empty are left out; members the schema does not list (typed in the JSON editor) are kept.
    QJsonObject values() const;
    // Fills the form (and the editor); members the form cannot show stay in the JSON editor.
    void setValues(const QJsonObject &values);

    // Why the values cannot be sent as they are, first problem first: a field that does not read
    // ("count: not an integer"), JSON that does not parse, then the schema's violations; empty
    // when they fit the schema.
    QString problem() const;
    QStringList problems() const;

    bool isShowingJson() const;
    // Shows the JSON editor (true) or the form; false when the form cannot show the JSON's values
    // (problem() says where).
    bool showJson(bool json);

Q_SIGNALS:
    // A value changed (by the user, or setValues()).
    void changed();
    // Return was pressed in a line field: the user wants to go ahead.
    void submitted();

protected:
    void changeEvent(QEvent *event) override;

public:
    struct Node;

private:
    // A field's widgets for schema (a member, the root, an array's item), as SchemaField describes it.
    std::unique_ptr<Node> build(const QString &name, const QJsonValue &schema, bool required, int depth);
    std::unique_ptr<Node> buildNode(const SchemaField &field);
    QWidget *fieldWidget(Node *node);
    void addMember(QFormLayout *form, Node *node);
    void addArrayItem(Node *array, const QJsonValue &value, bool set);
    void removeArrayItem(Node *array, Node *item);
    std::optional<QJsonValue> valueOf(const Node *node, const QString &path, QStringList *problems) const;
    // Sets the node; false when it cannot show the value exactly.
    bool setValueOf(Node *node, const QJsonValue &value);
    void clearNode(Node *node);
    QJsonObject formValues(QStringList *problems) const;
    void showFieldErrors();
    void showErrorsOf(Node *node, const QString &path, QHash<QString, QStringList> *byPath);
    void handleEdited();
    void handleJsonEdited();
    void applyColors();
    void watch(QWidget *editor);
    void setCompletions(QLineEdit *edit, const QStringList &values);
    void refreshSuggestions();
    bool eventFilter(QObject *watched, QEvent *event) override;

    QJsonObject m_schema;
    ArgumentSuggestions m_suggestions;
    std::unique_ptr<Node> m_root;
    QJsonObject m_extra; // members the schema does not list, kept from setValues() and the editor
    QToolButton *m_formButton;
    QToolButton *m_jsonButton;
    QStackedWidget *m_stack;
    QScrollArea *m_scroll;
    QWidget *m_formPage = nullptr;
    WrapLabel *m_empty;
    WrapLabel *m_extraNote;
    QPlainTextEdit *m_json;
    WrapLabel *m_problemLabel;
    QString m_jsonProblem;   // the editor's text does not parse as an object
    QString m_switchProblem; // why the form did not take over the editor's values
    QJsonObject m_jsonValues;
    bool m_syncing = false;
};

} // namespace folio
