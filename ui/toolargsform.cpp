#include "toolargsform.h"

#include "schemaform.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace folio {

ToolArgsForm::ToolArgsForm(QWidget *parent)
    : QWidget(parent)
    , m_form(new SchemaForm(this))
{
    // As tall as its fields, never more than a few rows' worth: the strip and the table below
    // are what the view is for (the form scrolls beyond that).
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_form);
    connect(m_form, &SchemaForm::submitted, this, &ToolArgsForm::applied);
    connect(this, &ToolArgsForm::applied, m_form, &SchemaForm::rememberValues);
}

void ToolArgsForm::setSuggestions(const ArgumentSuggestions &suggestions)
{
    m_form->setSuggestions(suggestions);
}

void ToolArgsForm::setTool(const QJsonObject &tool, const QString &cursorArg, const QString &limitArg)
{
    // The form shows every argument but the two the walk sends itself.
    QJsonObject schema = tool.value(QStringLiteral("inputSchema")).toObject();
    QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    const QJsonObject limitProperty = props.value(limitArg).toObject();
    props.remove(cursorArg);
    if (!limitArg.isEmpty())
        props.remove(limitArg);
    schema.insert(QStringLiteral("properties"), props);
    QJsonArray required;
    for (const QJsonValue &r : schema.value(QStringLiteral("required")).toArray()) {
        if (r.toString() != cursorArg && r.toString() != limitArg)
            required.append(r);
    }
    schema.insert(QStringLiteral("required"), required);
    m_form->setSchema(schema);
    // Nothing to fill in but the paging: the form gives its room to the list (the limit row stays).
    m_form->setVisible(!m_form->isEmpty());

    delete m_limitRow;
    m_limit = nullptr;
    m_useLimit = nullptr;
    m_limitRow = new QWidget(this);
    auto *h = new QHBoxLayout(m_limitRow);
    h->setContentsMargins(0, 0, 0, 0);
    if (!limitArg.isEmpty()) {
        m_useLimit = new QCheckBox(limitArg, m_limitRow);
        m_limit = new QSpinBox(m_limitRow);
        // Within the schema's bounds, at its default, else 20 (a page size, never its minimum of 1).
        const int low = qMax(1, limitProperty.value(QStringLiteral("minimum")).toInt(1));
        const int high = limitProperty.value(QStringLiteral("maximum")).isDouble()
                             ? qMax(low, limitProperty.value(QStringLiteral("maximum")).toInt())
                             : 100000;
        m_limit->setRange(low, high);
        m_limit->setValue(qBound(low, limitProperty.value(QStringLiteral("default")).toInt(20), high));
        m_limit->setEnabled(false);
        connect(m_useLimit, &QCheckBox::toggled, m_limit, &QWidget::setEnabled);
        h->addWidget(m_useLimit);
        h->addWidget(m_limit);
    }
    h->addStretch();
    auto *apply = new QPushButton(tr("Walk with these arguments"), m_limitRow);
    apply->setToolTip(tr("Discard the pages read and walk the list again with these arguments"));
    connect(apply, &QPushButton::clicked, this, &ToolArgsForm::applied);
    h->addWidget(apply);
    layout()->addWidget(m_limitRow);
    const int limitRow = m_limitRow->sizeHint().height();
    setMaximumHeight(m_form->isEmpty() ? limitRow
                                       : limitRow + layout()->spacing() +
                                             qMin(m_form->sizeHint().height(), fontMetrics().height() * 9));
}

QJsonObject ToolArgsForm::arguments() const
{
    return m_form->values();
}

std::optional<int> ToolArgsForm::limit() const
{
    if (m_limit && m_useLimit && m_useLimit->isChecked())
        return m_limit->value();
    return std::nullopt;
}

} // namespace folio
