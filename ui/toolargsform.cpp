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
        m_limit->setRange(1, 100000);
        const QJsonObject lp = props.value(limitArg).toObject();
        m_limit->setValue(lp.value(QStringLiteral("default")).toInt(20));
        if (lp.contains(QStringLiteral("maximum")))
            m_limit->setMaximum(lp.value(QStringLiteral("maximum")).toInt());
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

QJsonObject ToolArgsForm::arguments() const
{
    QJsonObject args;
    for (const Field &f : m_fields) {
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
