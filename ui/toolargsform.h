#pragma once

#include <QJsonObject>
#include <QWidget>

class QFormLayout;
class QSpinBox;
class QCheckBox;

namespace folio {

// A form built from a list tool's inputSchema: one field per argument other than the cursor and
// the limit, plus the limit. Values that are empty are left out of the arguments.
class ToolArgsForm : public QWidget
{
    Q_OBJECT
public:
    explicit ToolArgsForm(QWidget *parent = nullptr);

    void setTool(const QJsonObject &tool, const QString &cursorArg, const QString &limitArg);
    QJsonObject arguments() const;
    std::optional<int> limit() const;

Q_SIGNALS:
    // The user asked to walk the list with these arguments.
    void applied();

private:
    QSpinBox *integerBox(const QJsonObject &property, bool required);

    struct Field
    {
        QString name;
        QString type;
        QWidget *editor = nullptr;
    };
    QFormLayout *m_form;
    QList<Field> m_fields;
    QSpinBox *m_limit = nullptr;
    QCheckBox *m_useLimit = nullptr;
};

} // namespace folio
