#pragma once

#include <QJsonObject>
#include <QWidget>

#include <optional>

class QSpinBox;
class QCheckBox;

namespace folio {

class ArgumentSuggestions;
class SchemaForm;

// A list tool's arguments for its walk: the SchemaForm of its inputSchema without the cursor and
// the limit (the walk sends those), plus the page limit and the button that walks again.
class ToolArgsForm : public QWidget
{
    Q_OBJECT
public:
    explicit ToolArgsForm(QWidget *parent = nullptr);

    void setTool(const QJsonObject &tool, const QString &cursorArg, const QString &limitArg);
    // Whose arguments these are: the fields suggest the values given before (SchemaForm), and
    // each walk asked for remembers its arguments.
    void setSuggestions(const ArgumentSuggestions &suggestions);
    QJsonObject arguments() const;
    std::optional<int> limit() const;
    SchemaForm *form() const { return m_form; }

Q_SIGNALS:
    // The user asked to walk the list with these arguments.
    void applied();

private:
    SchemaForm *m_form;
    QWidget *m_limitRow = nullptr;
    QSpinBox *m_limit = nullptr;
    QCheckBox *m_useLimit = nullptr;
};

} // namespace folio
