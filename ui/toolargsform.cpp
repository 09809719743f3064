#include "toolargsform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>

namespace folio {

ToolArgsForm::ToolArgsForm(QWidget *parent)
    : QWidget(parent)
    , m_form(new QFormLayout)
{
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    outer->addLayout(m_form, 1);
}

void ToolArgsForm::setTool(const QJsonObject &tool, const QString &cursorArg, const QString &limitArg)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    m_limit = nullptr;
    const QJsonObject schema = tool.value(QStringLiteral("inputSchema")).toObject();
    const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    const QJsonArray required = schema.value(QStringLiteral("required")).toArray();
    for (auto it = props.begin(); it != props.end(); ++it) {
        if (it.key() == cursorArg || it.key() == limitArg)
            continue;
        const QJsonObject p = it.value().toObject();
        Field f;
        f.name = it.key();
        f.type = p.value(QStringLiteral("type")).toString();
        if (p.contains(QStringLiteral("enum"))) {
            auto *combo = new QComboBox;
            combo->addItem(QString());
            for (const QJsonValue &v : p.value(QStringLiteral("enum")).toArray())
                combo->addItem(v.toVariant().toString());
            f.editor = combo;
        } else if (f.type == QLatin1String("boolean")) {
            auto *combo = new QComboBox;
            combo->addItems({QString(), QStringLiteral("true"), QStringLiteral("false")});
            f.editor = combo;
        } else if (f.type == QLatin1String("integer")) {
            f.editor = integerBox(p, required.contains(f.name));
        } else {
            auto *edit = new QLineEdit;
            edit->setPlaceholderText(p.value(QStringLiteral("description")).toString().left(80));
            if (p.contains(QStringLiteral("default")))
                edit->setText(p.value(QStringLiteral("default")).toVariant().toString());
            connect(edit, &QLineEdit::returnPressed, this, &ToolArgsForm::applied);
            f.editor = edit;
        }
        f.editor->setToolTip(p.value(QStringLiteral("description")).toString());
        const QString label = required.contains(f.name) ? f.name + QStringLiteral(" *") : f.name;
        m_form->addRow(label, f.editor);
        m_fields.append(f);
    }
    auto *row = new QWidget;
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    if (!limitArg.isEmpty()) {
        m_useLimit = new QCheckBox(limitArg);
        m_limit = new QSpinBox;
        // Within the schema's bounds, at its default, else 20 (a page size, never its minimum of 1).
        const QJsonObject lp = props.value(limitArg).toObject();
        const int low = qMax(1, lp.value(QStringLiteral("minimum")).toInt(1));
        const int high = lp.value(QStringLiteral("maximum")).isDouble()
                             ? qMax(low, lp.value(QStringLiteral("maximum")).toInt())
                             : 100000;
        m_limit->setRange(low, high);
        m_limit->setValue(qBound(low, lp.value(QStringLiteral("default")).toInt(20), high));
        m_limit->setEnabled(false);
        connect(m_useLimit, &QCheckBox::toggled, m_limit, &QWidget::setEnabled);
        h->addWidget(m_useLimit);
        h->addWidget(m_limit);
    }
    h->addStretch();
    auto *apply = new QPushButton(tr("Walk with these arguments"));
    apply->setToolTip(tr("Discard the pages read and walk the list again with these arguments"));
    connect(apply, &QPushButton::clicked, this, &ToolArgsForm::applied);
    h->addWidget(apply);
    m_form->addRow(QString(), row);
}

// An integer argument as a spin box within the schema's bounds, starting at its default, else (when
// required) its minimum, else 0 within the bounds. An optional one without a default starts one
// below its bounds, shown as "not set", and is then not sent.
QSpinBox *ToolArgsForm::integerBox(const QJsonObject &p, bool required)
{
    constexpr double limit = 1e9; // within a spin box's int, with room for the "not set" step
    double low = -limit, high = limit;
    if (p.value(QStringLiteral("minimum")).isDouble())
        low = p.value(QStringLiteral("minimum")).toDouble();
    if (p.value(QStringLiteral("exclusiveMinimum")).isDouble())
        low = qMax(low, std::floor(p.value(QStringLiteral("exclusiveMinimum")).toDouble()) + 1);
    if (p.value(QStringLiteral("maximum")).isDouble())
        high = p.value(QStringLiteral("maximum")).toDouble();
    if (p.value(QStringLiteral("exclusiveMaximum")).isDouble())
        high = qMin(high, std::ceil(p.value(QStringLiteral("exclusiveMaximum")).toDouble()) - 1);
    low = qBound(-limit, std::ceil(low), limit);
    high = qBound(low, std::floor(high), limit);
    auto *box = new QSpinBox;
    const bool hasDefault = p.value(QStringLiteral("default")).isDouble();
    const bool unsettable = !required;
    box->setRange(int(low) - (unsettable ? 1 : 0), int(high));
    if (unsettable)
        box->setSpecialValueText(tr("(not set)"));
    if (hasDefault)
        box->setValue(int(qBound(low, p.value(QStringLiteral("default")).toDouble(), high)));
    else if (unsettable)
        box->setValue(box->minimum());
    else
        box->setValue(int(qBound(low, 0.0, high)));
    box->setProperty("folioUnset", unsettable ? box->minimum() : box->minimum() - 1);
    return box;
}

QJsonObject ToolArgsForm::arguments() const
{
    QJsonObject args;
    for (const Field &f : m_fields) {
        if (auto *box = qobject_cast<QSpinBox *>(f.editor)) {
            if (box->value() != box->property("folioUnset").toInt())
                args[f.name] = box->value();
            continue;
        }
        QString text;
        if (auto *edit = qobject_cast<QLineEdit *>(f.editor))
            text = edit->text();
        else if (auto *combo = qobject_cast<QComboBox *>(f.editor))
            text = combo->currentText();
        if (text.isEmpty())
            continue;
        if (f.type == QLatin1String("integer"))
            args[f.name] = text.toLongLong();
        else if (f.type == QLatin1String("number"))
            args[f.name] = text.toDouble();
        else if (f.type == QLatin1String("boolean"))
            args[f.name] = text == QLatin1String("true");
        else if (f.type == QLatin1String("array") || f.type == QLatin1String("object")) {
            const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
            args[f.name] = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
        } else
            args[f.name] = text;
    }
    return args;
}

std::optional<int> ToolArgsForm::limit() const
{
    if (m_limit && m_useLimit && m_useLimit->isChecked())
        return m_limit->value();
    return std::nullopt;
}

} // namespace folio
