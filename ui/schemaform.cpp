#include "schemaform.h"

#include "fonts.h"
#include "schemafield.h"

#include "schemacheck.h"
#include "statuscolors.h"
#include "wraplabel.h"

#include <QAbstractItemView>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStringListModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace folio {

namespace {

QString compact(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isString())
        return v.toString();
    const QString text = QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
    return text.mid(1, text.size() - 2);
}

// Any JSON value read from one line of text; nothing when it does not parse.
std::optional<QJsonValue> parseValue(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text.toUtf8() + "]", &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().first();
}

} // namespace

struct SchemaForm::Node
{
    using Kind = SchemaField::Kind;

    Kind kind = Kind::Json;
    QString name;
    QJsonObject schema; // with its $refs resolved
    bool required = false;
    int depth = 0;
    QWidget *field = nullptr;                   // what the form row holds: editor, hint and error
    QWidget *editor = nullptr;                  // line edit, spin box, combo box, check box or group box
    WrapLabel *error = nullptr;                 // this field's problem, shown under it
    std::vector<std::unique_ptr<Node>> members; // Object
    QJsonValue itemSchema;                      // Array
    std::vector<std::unique_ptr<Node>> items;   // Array
    QVBoxLayout *itemsLayout = nullptr;         // Array
    QJsonArray choices;                         // Enum: the values, in the combo's order
    int unsetSpin = 0;                          // Integer: the "(not set)" value
};

SchemaForm::SchemaForm(QWidget *parent)
    : QWidget(parent)
    , m_formButton(new QToolButton(this))
    , m_jsonButton(new QToolButton(this))
    , m_stack(new QStackedWidget(this))
    , m_scroll(new QScrollArea(this))
    , m_empty(new WrapLabel(this))
    , m_extraNote(new WrapLabel(this))
    , m_json(new QPlainTextEdit(this))
    , m_problemLabel(new WrapLabel(this))
{
    m_formButton->setText(tr("Form"));
    m_jsonButton->setText(tr("JSON"));
    m_formButton->setToolTip(tr("Fill in the arguments field by field"));
    m_jsonButton->setToolTip(tr("Edit the arguments as one JSON object (for what the form cannot express)"));
    for (QToolButton *b : {m_formButton, m_jsonButton}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    }
    m_formButton->setObjectName(QStringLiteral("schemaFormFormButton"));
    m_jsonButton->setObjectName(QStringLiteral("schemaFormJsonButton"));
    auto *group = new QButtonGroup(this);
    group->addButton(m_formButton);
    group->addButton(m_jsonButton);
    group->setExclusive(true);
    m_formButton->setChecked(true);
    connect(m_formButton, &QToolButton::clicked, this, [this] { showJson(false); });
    connect(m_jsonButton, &QToolButton::clicked, this, [this] { showJson(true); });

    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_json->setObjectName(QStringLiteral("schemaFormJson"));
    m_json->setFont(fixedFont());
    m_json->setTabChangesFocus(true);
    m_json->setPlaceholderText(QStringLiteral("{ }"));
    m_stack->addWidget(m_scroll);
    m_stack->addWidget(m_json);
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setText(tr("No arguments to fill in."));
    m_empty->setVisible(false);
    m_extraNote->setVisible(false);
    m_problemLabel->setObjectName(QStringLiteral("schemaFormProblem"));
    m_problemLabel->setVisible(false);
    m_problemLabel->setTextFormat(Qt::PlainText);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(0);
    bar->addWidget(m_formButton);
    bar->addWidget(m_jsonButton);
    bar->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_empty);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_extraNote);
    layout->addWidget(m_problemLabel);
    applyColors();

    connect(m_json, &QPlainTextEdit::textChanged, this, &SchemaForm::handleJsonEdited);
    setSchema(QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}});
}

SchemaForm::~SchemaForm() = default;

void SchemaForm::applyColors()
{
    const StatusColors colors(palette());
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, colors.mutedText());
    m_empty->setPalette(muted);
    m_extraNote->setPalette(muted);
    QPalette error = palette();
    error.setColor(QPalette::WindowText, colors.failed());
    m_problemLabel->setPalette(error);
    const QList<WrapLabel *> labels = findChildren<WrapLabel *>(QStringLiteral("fieldError"));
    for (WrapLabel *l : labels)
        l->setPalette(error);
    const QList<WrapLabel *> hints = findChildren<WrapLabel *>(QStringLiteral("fieldHint"));
    for (WrapLabel *l : hints)
        l->setPalette(muted);
}

void SchemaForm::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

void SchemaForm::setSchema(const QJsonObject &schema)
{
    m_schema = schema;
    m_extra = {};
    m_jsonProblem.clear();
    m_root.reset();
    if (m_formPage)
        m_formPage->deleteLater();
    m_syncing = true;
    m_root = build(QString(), schema, true, 0);
    if (m_root->kind != Node::Kind::Object) {
        // An arguments schema is an object; anything else is edited as JSON.
        m_root = std::make_unique<Node>();
        m_root->kind = Node::Kind::Object;
        m_root->schema = schema;
    }
    m_formPage = new QWidget;
    auto *form = new QFormLayout(m_formPage);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setContentsMargins(0, 0, 6, 0);
    for (const std::unique_ptr<Node> &member : m_root->members)
        addMember(form, member.get());
    m_scroll->setWidget(m_formPage);
    m_empty->setVisible(isEmpty());
    m_scroll->setVisible(!isEmpty());
    refreshSuggestions();
    m_syncing = false;
    applyColors();
    handleEdited();
}

void SchemaForm::setSuggestions(const ArgumentSuggestions &suggestions)
{
    m_suggestions = suggestions;
    refreshSuggestions();
}

void SchemaForm::rememberValues()
{
    m_suggestions.remember(values(), m_schema);
    refreshSuggestions();
}

QStringList SchemaForm::suggestionsFor(const QString &argument) const
{
    if (!m_root)
        return {};
    for (const std::unique_ptr<Node> &member : m_root->members) {
        if (member->name != argument)
            continue;
        const auto *edit = qobject_cast<QLineEdit *>(member->editor);
        const auto *model = edit && edit->completer()
                                ? qobject_cast<QStringListModel *>(edit->completer()->model())
                                : nullptr;
        return model ? model->stringList() : QStringList();
    }
    return {};
}

// The top-level text and number fields: the values given before, then the schema's (nested
// fields keep the schema's alone, set when built).
void SchemaForm::refreshSuggestions()
{
    if (!m_root)
        return;
    for (const std::unique_ptr<Node> &member : m_root->members) {
        if (member->kind != Node::Kind::String && member->kind != Node::Kind::Number)
            continue;
        if (auto *edit = qobject_cast<QLineEdit *>(member->editor))
            setCompletions(edit, m_suggestions.suggestions(member->name, member->schema));
    }
}

void SchemaForm::setCompletions(QLineEdit *edit, const QStringList &values)
{
    QCompleter *completer = edit->completer();
    if (!completer && values.isEmpty())
        return;
    if (!completer) {
        completer = new QCompleter(new QStringListModel(edit), edit);
        completer->setCaseSensitivity(Qt::CaseInsensitive);
        completer->setFilterMode(Qt::MatchContains);
        completer->setCompletionMode(QCompleter::PopupCompletion);
        completer->setMaxVisibleItems(10);
        edit->setCompleter(completer);
        edit->installEventFilter(this);
        // A chosen suggestion is set, not typed: the form hears of it once the field has it.
        connect(completer, qOverload<const QString &>(&QCompleter::activated), this,
                &SchemaForm::handleEdited, Qt::QueuedConnection);
        if (edit->placeholderText().isEmpty())
            edit->setPlaceholderText(tr("type, or ↓ for suggestions"));
    }
    auto *model = qobject_cast<QStringListModel *>(completer->model());
    if (!model) {
        model = new QStringListModel(completer);
        completer->setModel(model);
    }
    model->setStringList(values);
}

// Down in a field with suggestions and no list shown: the suggestions that fit what it holds
// (all of them when it is empty).
bool SchemaForm::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Down &&
        static_cast<QKeyEvent *>(event)->modifiers() == Qt::NoModifier) {
        if (auto *edit = qobject_cast<QLineEdit *>(watched); edit && edit->completer() &&
                                                             !edit->completer()->popup()->isVisible() &&
                                                             edit->completer()->model()->rowCount() > 0) {
            edit->completer()->setCompletionPrefix(edit->text());
            edit->completer()->complete();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool SchemaForm::isEmpty() const
{
    return !m_root || m_root->members.empty();
}

std::unique_ptr<SchemaForm::Node> SchemaForm::build(const QString &name, const QJsonValue &schemaValue,
                                                    bool required, int depth)
{
    return buildNode(SchemaField::describe(m_schema, name, schemaValue, required, depth));
}

std::unique_ptr<SchemaForm::Node> SchemaForm::buildNode(const SchemaField &f)
{
    auto node = std::make_unique<Node>();
    node->kind = f.kind;
    node->name = f.name;
    node->required = f.required;
    node->depth = f.depth;
    node->schema = f.schema;
    const QString &name = f.name;
    const bool required = f.required;
    switch (f.kind) {
    case Node::Kind::Enum: {
        node->choices = f.choices;
        auto *combo = new QComboBox;
        if (!required)
            combo->addItem(tr("(not set)"));
        for (qsizetype i = 0; i < f.choices.size(); ++i) {
            const QString value = compact(f.choices.at(i));
            const QString title = f.choiceTitles.value(i);
            combo->addItem(title.isEmpty() || title == value
                               ? value
                               : title + QStringLiteral(" (") + value + QLatin1Char(')'));
        }
        node->editor = combo;
        break;
    }
    case Node::Kind::Object: {
        for (const SchemaField &member : f.members)
            node->members.push_back(buildNode(member));
        if (f.depth > 0) {
            auto *box = new QGroupBox;
            box->setFlat(false);
            if (!required) {
                box->setCheckable(true);
                box->setChecked(false);
                box->setTitle(tr("include"));
                box->setToolTip(tr("Tick to send %1").arg(name));
            }
            auto *form = new QFormLayout(box);
            form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
            for (const std::unique_ptr<Node> &member : node->members)
                addMember(form, member.get());
            if (node->members.empty())
                form->addRow(new QLabel(tr("(any members: use the JSON editor)")));
            node->editor = box;
        }
        break;
    }
    case Node::Kind::Array: {
        node->itemSchema = f.itemSchema;
        auto *box = new QWidget;
        auto *v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(2);
        node->itemsLayout = new QVBoxLayout;
        node->itemsLayout->setSpacing(2);
        v->addLayout(node->itemsLayout);
        auto *add = new QPushButton(tr("Add item"));
        add->setObjectName(QStringLiteral("addItem"));
        add->setToolTip(tr("Add an item to %1").arg(name));
        auto *h = new QHBoxLayout;
        h->addWidget(add);
        h->addStretch();
        v->addLayout(h);
        Node *raw = node.get();
        connect(add, &QPushButton::clicked, this, [this, raw] {
            addArrayItem(raw, QJsonValue::Undefined, false);
            handleEdited();
        });
        node->editor = box;
        break;
    }
    case Node::Kind::String: {
        auto *edit = new QLineEdit;
        if (!f.format.isEmpty())
            edit->setPlaceholderText(f.format);
        if (f.format == QLatin1String("password"))
            edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
        connect(edit, &QLineEdit::returnPressed, this, &SchemaForm::submitted);
        node->editor = edit;
        break;
    }
    case Node::Kind::Integer: {
        auto *box = new QSpinBox;
        const bool unsettable = !required;
        box->setRange(int(f.low) - (unsettable ? 1 : 0), int(f.high));
        if (unsettable)
            box->setSpecialValueText(tr("(not set)"));
        node->unsetSpin = unsettable ? box->minimum() : box->minimum() - 1;
        if (unsettable)
            box->setValue(box->minimum());
        else
            box->setValue(int(qBound(f.low, 0.0, f.high)));
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("(not set)000")));
        node->editor = box;
        break;
    }
    case Node::Kind::Number: {
        auto *edit = new QLineEdit;
        edit->setPlaceholderText(tr("a number"));
        connect(edit, &QLineEdit::returnPressed, this, &SchemaForm::submitted);
        node->editor = edit;
        break;
    }
    case Node::Kind::Boolean:
        if (required) {
            node->editor = new QCheckBox;
        } else {
            auto *combo = new QComboBox;
            combo->addItems({tr("(not set)"), QStringLiteral("true"), QStringLiteral("false")});
            node->editor = combo;
        }
        break;
    case Node::Kind::Json: {
        auto *edit = new QLineEdit;
        edit->setPlaceholderText(tr("any JSON value"));
        edit->setFont(fixedFont());
        connect(edit, &QLineEdit::returnPressed, this, &SchemaForm::submitted);
        node->editor = edit;
        break;
    }
    }
    if ((f.kind == Node::Kind::String || f.kind == Node::Kind::Number) && f.depth > 1)
        setCompletions(static_cast<QLineEdit *>(node->editor), ArgumentSuggestions::fromSchema(f.schema));
    if (node->editor) {
        node->editor->setObjectName(QStringLiteral("field:") + name);
        if (!f.description.isEmpty())
            node->editor->setToolTip(f.description);
        watch(node->editor);
    }
    const QJsonObject &s = f.schema;
    if (s.contains(QStringLiteral("default")) &&
        !setValueOf(node.get(), s.value(QStringLiteral("default"))) && node->kind == Node::Kind::Integer &&
        s.value(QStringLiteral("default")).isDouble()) {
        // A default outside the schema's own bounds: the nearest value within them.
        auto *box = static_cast<QSpinBox *>(node->editor);
        const int low = node->unsetSpin == box->minimum() ? box->minimum() + 1 : box->minimum();
        box->setValue(
            int(qBound(double(low), s.value(QStringLiteral("default")).toDouble(), double(box->maximum()))));
    }
    return node;
}

void SchemaForm::watch(QWidget *editor)
{
    if (auto *edit = qobject_cast<QLineEdit *>(editor))
        connect(edit, &QLineEdit::textEdited, this, &SchemaForm::handleEdited);
    else if (auto *spin = qobject_cast<QSpinBox *>(editor))
        connect(spin, &QSpinBox::valueChanged, this, &SchemaForm::handleEdited);
    else if (auto *combo = qobject_cast<QComboBox *>(editor))
        connect(combo, &QComboBox::currentIndexChanged, this, &SchemaForm::handleEdited);
    else if (auto *check = qobject_cast<QCheckBox *>(editor))
        connect(check, &QCheckBox::toggled, this, &SchemaForm::handleEdited);
    else if (auto *group = qobject_cast<QGroupBox *>(editor))
        connect(group, &QGroupBox::toggled, this, &SchemaForm::handleEdited);
}

// The form row's field: the editor, the hint (title and description) and this field's problem.
QWidget *SchemaForm::fieldWidget(Node *node)
{
    auto *field = new QWidget;
    auto *v = new QVBoxLayout(field);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(1);
    v->addWidget(node->editor);
    QStringList hint;
    const QString title = node->schema.value(QStringLiteral("title")).toString();
    if (!title.isEmpty() && title != node->name)
        hint << title;
    const QString description = node->schema.value(QStringLiteral("description")).toString();
    if (!description.isEmpty())
        hint << (description.size() > 240 ? description.left(239) + QChar(0x2026) : description);
    if (!hint.isEmpty()) {
        auto *label = new WrapLabel;
        label->setObjectName(QStringLiteral("fieldHint"));
        label->setTextFormat(Qt::PlainText);
        label->setText(hint.join(QStringLiteral(" — ")));
        QFont small = label->font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        label->setFont(small);
        v->addWidget(label);
    }
    node->error = new WrapLabel;
    node->error->setObjectName(QStringLiteral("fieldError"));
    node->error->setTextFormat(Qt::PlainText);
    node->error->setVisible(false);
    v->addWidget(node->error);
    node->field = field;
    return field;
}

void SchemaForm::addMember(QFormLayout *form, Node *node)
{
    auto *label = new QLabel(node->required ? node->name + QStringLiteral(" *") : node->name);
    label->setToolTip(node->required ? tr("%1 (required)").arg(node->name) : node->name);
    if (node->kind == Node::Kind::Object || node->kind == Node::Kind::Array)
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(label, fieldWidget(node));
    label->setBuddy(node->editor);
}

void SchemaForm::addArrayItem(Node *array, const QJsonValue &value, bool set)
{
    std::unique_ptr<Node> item = build(QString(), array->itemSchema, true, array->depth + 1);
    Node *raw = item.get();
    auto *row = new QWidget;
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(fieldWidget(raw), 1);
    auto *remove = new QToolButton;
    remove->setObjectName(QStringLiteral("removeItem"));
    remove->setText(QStringLiteral("−"));
    remove->setToolTip(tr("Remove this item"));
    h->addWidget(remove, 0, Qt::AlignTop);
    raw->field = row; // the row goes when the item goes
    array->itemsLayout->addWidget(row);
    connect(remove, &QToolButton::clicked, this, [this, array, raw] {
        removeArrayItem(array, raw);
        handleEdited();
    });
    if (set)
        setValueOf(raw, value);
    array->items.push_back(std::move(item));
    applyColors();
}

void SchemaForm::removeArrayItem(Node *array, Node *item)
{
    for (auto it = array->items.begin(); it != array->items.end(); ++it) {
        if (it->get() == item) {
            item->field->deleteLater();
            array->items.erase(it);
            return;
        }
    }
}

std::optional<QJsonValue> SchemaForm::valueOf(const Node *node, const QString &path,
                                              QStringList *problems) const
{
    auto problem = [&](const QString &message) {
        if (problems)
            problems->append(readablePath(path) + QStringLiteral(": ") + message);
    };
    switch (node->kind) {
    case Node::Kind::Object: {
        if (auto *box = qobject_cast<QGroupBox *>(node->editor);
            box && box->isCheckable() && !box->isChecked())
            return std::nullopt;
        QJsonObject o;
        for (const std::unique_ptr<Node> &m : node->members) {
            QString token = m->name;
            token.replace(QLatin1Char('~'), QStringLiteral("~0"))
                .replace(QLatin1Char('/'), QStringLiteral("~1"));
            if (const auto v = valueOf(m.get(), path + QLatin1Char('/') + token, problems))
                o.insert(m->name, *v);
        }
        return o;
    }
    case Node::Kind::Array: {
        QJsonArray a;
        for (size_t i = 0; i < node->items.size(); ++i) {
            const auto v =
                valueOf(node->items[i].get(), path + QLatin1Char('/') + QString::number(i), problems);
            a.append(v ? *v : QJsonValue(QJsonValue::Null));
        }
        if (a.isEmpty() && !node->required)
            return std::nullopt;
        return a;
    }
    case Node::Kind::String: {
        // Empty is not sent (a required one is then reported missing); "" itself goes through the
        // JSON editor.
        const QString text = static_cast<QLineEdit *>(node->editor)->text();
        if (text.isEmpty())
            return std::nullopt;
        return text;
    }
    case Node::Kind::Number: {
        const QString text = static_cast<QLineEdit *>(node->editor)->text().trimmed();
        if (text.isEmpty())
            return std::nullopt;
        bool ok = false;
        const double d = text.toDouble(&ok);
        if (!ok || !std::isfinite(d)) {
            problem(tr("\"%1\" is not a number").arg(text));
            return std::nullopt;
        }
        return d;
    }
    case Node::Kind::Integer: {
        const auto *box = static_cast<QSpinBox *>(node->editor);
        if (box->value() == node->unsetSpin)
            return std::nullopt;
        return box->value();
    }
    case Node::Kind::Boolean:
        if (auto *check = qobject_cast<QCheckBox *>(node->editor))
            return check->isChecked();
        if (auto *combo = qobject_cast<QComboBox *>(node->editor)) {
            if (combo->currentIndex() <= 0)
                return std::nullopt;
            return combo->currentIndex() == 1;
        }
        return std::nullopt;
    case Node::Kind::Enum: {
        const auto *combo = static_cast<QComboBox *>(node->editor);
        const int i = combo->currentIndex() - (node->required ? 0 : 1);
        if (i < 0 || i >= node->choices.size())
            return std::nullopt;
        return node->choices.at(i);
    }
    case Node::Kind::Json: {
        const QString text = static_cast<QLineEdit *>(node->editor)->text().trimmed();
        if (text.isEmpty())
            return std::nullopt;
        if (const auto v = parseValue(text))
            return v;
        // A bare word where the schema allows a string: sent as one.
        if (node->schema.isEmpty() ||
            node->schema.value(QStringLiteral("type")) == QJsonValue(QStringLiteral("string")))
            return text;
        problem(tr("not JSON (a string needs quotes here)"));
        return std::nullopt;
    }
    }
    return std::nullopt;
}

void SchemaForm::clearNode(Node *node)
{
    switch (node->kind) {
    case Node::Kind::Object:
        if (auto *box = qobject_cast<QGroupBox *>(node->editor); box && box->isCheckable())
            box->setChecked(false);
        for (const std::unique_ptr<Node> &m : node->members)
            clearNode(m.get());
        break;
    case Node::Kind::Array:
        while (!node->items.empty())
            removeArrayItem(node, node->items.back().get());
        break;
    case Node::Kind::String:
    case Node::Kind::Number:
    case Node::Kind::Json:
        static_cast<QLineEdit *>(node->editor)->clear();
        break;
    case Node::Kind::Integer:
        if (node->unsetSpin >= static_cast<QSpinBox *>(node->editor)->minimum())
            static_cast<QSpinBox *>(node->editor)->setValue(node->unsetSpin);
        break;
    case Node::Kind::Boolean:
        if (auto *check = qobject_cast<QCheckBox *>(node->editor))
            check->setChecked(false);
        else if (auto *combo = qobject_cast<QComboBox *>(node->editor))
            combo->setCurrentIndex(0);
        break;
    case Node::Kind::Enum:
        static_cast<QComboBox *>(node->editor)->setCurrentIndex(0);
        break;
    }
}

bool SchemaForm::setValueOf(Node *node, const QJsonValue &value)
{
    if (value.isUndefined()) {
        clearNode(node);
        return true;
    }
    switch (node->kind) {
    case Node::Kind::Object: {
        if (!value.isObject())
            return false;
        if (auto *box = qobject_cast<QGroupBox *>(node->editor); box && box->isCheckable())
            box->setChecked(true);
        const QJsonObject o = value.toObject();
        bool exact = true;
        for (const std::unique_ptr<Node> &m : node->members)
            exact = setValueOf(m.get(), o.value(m->name)) && exact;
        if (node != m_root.get()) {
            for (auto it = o.begin(); it != o.end(); ++it) {
                const bool listed =
                    std::any_of(node->members.begin(), node->members.end(),
                                [&](const std::unique_ptr<Node> &m) { return m->name == it.key(); });
                exact = exact && listed;
            }
        }
        return exact;
    }
    case Node::Kind::Array: {
        if (!value.isArray())
            return false;
        while (!node->items.empty())
            removeArrayItem(node, node->items.back().get());
        bool exact = true;
        for (const QJsonValue &v : value.toArray()) {
            addArrayItem(node, v, true);
            exact = exact &&
                    valueOf(node->items.back().get(), QString(), nullptr) == std::optional<QJsonValue>(v);
        }
        return exact;
    }
    case Node::Kind::String:
        if (!value.isString())
            return false;
        static_cast<QLineEdit *>(node->editor)->setText(value.toString());
        return !value.toString().isEmpty();
    case Node::Kind::Number:
        if (!value.isDouble())
            return false;
        static_cast<QLineEdit *>(node->editor)->setText(QString::number(value.toDouble(), 'g', 17));
        return true;
    case Node::Kind::Integer: {
        auto *box = static_cast<QSpinBox *>(node->editor);
        const double d = value.toDouble();
        if (!value.isDouble() || d != std::floor(d) || d < box->minimum() || d > box->maximum() ||
            int(d) == node->unsetSpin)
            return false;
        box->setValue(int(d));
        return true;
    }
    case Node::Kind::Boolean:
        if (!value.isBool())
            return false;
        if (auto *check = qobject_cast<QCheckBox *>(node->editor))
            check->setChecked(value.toBool());
        else if (auto *combo = qobject_cast<QComboBox *>(node->editor))
            combo->setCurrentIndex(value.toBool() ? 1 : 2);
        return true;
    case Node::Kind::Enum: {
        qsizetype i = 0;
        while (i < node->choices.size() && node->choices.at(i) != value)
            ++i;
        if (i == node->choices.size())
            return false;
        static_cast<QComboBox *>(node->editor)->setCurrentIndex(int(i) + (node->required ? 0 : 1));
        return true;
    }
    case Node::Kind::Json:
        static_cast<QLineEdit *>(node->editor)
            ->setText(value.isString()
                          ? QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                                .mid(1)
                                .chopped(1)
                          : compact(value));
        return true;
    }
    return false;
}

QJsonObject SchemaForm::formValues(QStringList *problems) const
{
    QJsonObject out = m_extra;
    if (!m_root)
        return out;
    const std::optional<QJsonValue> v = valueOf(m_root.get(), QString(), problems);
    const QJsonObject o = v ? v->toObject() : QJsonObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

QJsonObject SchemaForm::values() const
{
    if (isShowingJson() && m_jsonProblem.isEmpty())
        return m_jsonValues;
    return formValues(nullptr);
}

void SchemaForm::setValues(const QJsonObject &values)
{
    m_syncing = true;
    m_extra = {};
    for (auto it = values.begin(); it != values.end(); ++it) {
        const bool listed =
            m_root && std::any_of(m_root->members.begin(), m_root->members.end(),
                                  [&](const std::unique_ptr<Node> &m) { return m->name == it.key(); });
        if (!listed)
            m_extra.insert(it.key(), it.value());
    }
    if (m_root)
        setValueOf(m_root.get(), values);
    m_syncing = false;
    if (isShowingJson()) {
        m_syncing = true;
        m_json->setPlainText(QString::fromUtf8(QJsonDocument(values).toJson(QJsonDocument::Indented)));
        m_jsonValues = values;
        m_jsonProblem.clear();
        m_syncing = false;
    }
    handleEdited();
}

QStringList SchemaForm::problems() const
{
    QStringList out;
    if (isShowingJson() && !m_jsonProblem.isEmpty())
        return {m_jsonProblem};
    QJsonObject v;
    if (isShowingJson())
        v = m_jsonValues;
    else
        v = formValues(&out);
    for (const SchemaViolation &violation : checkAgainstSchema(v, m_schema))
        out << readablePath(violation.path) + QStringLiteral(": ") + violation.message;
    return out;
}

QString SchemaForm::problem() const
{
    const QStringList all = problems();
    return all.isEmpty() ? QString() : all.first();
}

bool SchemaForm::isShowingJson() const
{
    return m_stack->currentWidget() == m_json;
}

bool SchemaForm::showJson(bool json)
{
    if (json == isShowingJson()) {
        m_formButton->setChecked(!json);
        m_jsonButton->setChecked(json);
        return true;
    }
    if (json) {
        const QJsonObject v = formValues(nullptr);
        m_syncing = true;
        m_json->setPlainText(QString::fromUtf8(QJsonDocument(v).toJson(QJsonDocument::Indented)));
        m_syncing = false;
        m_jsonValues = v;
        m_jsonProblem.clear();
        m_stack->setCurrentWidget(m_json);
        m_stack->setVisible(true);
        m_empty->setVisible(false);
    } else {
        if (!m_jsonProblem.isEmpty()) {
            m_jsonButton->setChecked(true);
            return false;
        }
        // The form takes over only what it can show exactly.
        m_syncing = true;
        setValues(m_jsonValues);
        m_syncing = false;
        const QJsonObject back = formValues(nullptr);
        if (back != m_jsonValues) {
            QStringList differ;
            for (auto it = m_jsonValues.begin(); it != m_jsonValues.end(); ++it) {
                if (back.value(it.key()) != it.value())
                    differ << it.key();
            }
            for (auto it = back.begin(); it != back.end(); ++it) {
                if (!m_jsonValues.contains(it.key()))
                    differ << it.key();
            }
            m_switchProblem =
                tr("The form cannot show these values as they are (%1): edit them here, or change them so "
                   "that they fit the schema's fields.")
                    .arg(differ.join(QStringLiteral(", ")));
            m_jsonButton->setChecked(true);
            m_formButton->setChecked(false);
            showFieldErrors();
            return false;
        }
        m_stack->setCurrentWidget(m_scroll);
        m_stack->setVisible(!isEmpty());
        m_empty->setVisible(isEmpty());
    }
    m_formButton->setChecked(!json);
    m_jsonButton->setChecked(json);
    handleEdited();
    return true;
}

void SchemaForm::handleJsonEdited()
{
    if (m_syncing)
        return;
    m_switchProblem.clear();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(m_json->toPlainText().toUtf8(), &error);
    if (m_json->toPlainText().trimmed().isEmpty()) {
        m_jsonValues = {};
        m_jsonProblem.clear();
    } else if (error.error != QJsonParseError::NoError) {
        m_jsonProblem = tr("The JSON does not parse: %1 at character %2")
                            .arg(error.errorString(), QString::number(error.offset));
    } else if (!doc.isObject()) {
        m_jsonProblem = tr("The arguments are a JSON object: { … }");
    } else {
        m_jsonValues = doc.object();
        m_jsonProblem.clear();
    }
    handleEdited();
}

void SchemaForm::handleEdited()
{
    if (m_syncing)
        return;
    const QStringList extras = m_extra.keys();
    m_extraNote->setText(tr("Also sent, from the JSON editor: %1").arg(extras.join(QStringLiteral(", "))));
    m_extraNote->setVisible(!extras.isEmpty() && !isShowingJson());
    showFieldErrors();
    Q_EMIT changed();
}

// In the form, each field shows its own problems and the label under the form the rest (the
// value as a whole, members only the JSON editor holds); in the JSON editor, the label shows all.
void SchemaForm::showFieldErrors()
{
    QStringList lines;
    if (!m_switchProblem.isEmpty())
        lines << m_switchProblem;
    if (isShowingJson()) {
        const QStringList all = problems();
        if (!all.isEmpty())
            lines << all.first() +
                         (all.size() > 1 ? tr(" (and %n more)", nullptr, int(all.size() - 1)) : QString());
    } else if (m_root) {
        QHash<QString, QStringList> byPath;
        QStringList fieldProblems;
        const QJsonObject v = formValues(&fieldProblems);
        for (const QString &p : std::as_const(fieldProblems)) {
            const qsizetype colon = p.indexOf(QStringLiteral(": "));
            byPath[p.left(colon)] << p.mid(colon + 2);
        }
        for (const SchemaViolation &violation : checkAgainstSchema(v, m_schema))
            byPath[readablePath(violation.path)] << violation.message;
        showErrorsOf(m_root.get(), QString(), &byPath);
        for (auto it = byPath.cbegin(); it != byPath.cend(); ++it)
            lines << it.key() + QStringLiteral(": ") + it.value().join(QStringLiteral("; "));
    }
    m_problemLabel->setText(lines.join(QLatin1Char('\n')));
    m_problemLabel->setVisible(!lines.isEmpty());
}

void SchemaForm::showErrorsOf(Node *node, const QString &path, QHash<QString, QStringList> *byPath)
{
    if (node->error) {
        const QStringList messages = path.isEmpty() ? QStringList() : byPath->take(readablePath(path));
        node->error->setText(messages.join(QStringLiteral("; ")));
        node->error->setVisible(!messages.isEmpty());
    }
    if (node->kind == Node::Kind::Object) {
        for (const std::unique_ptr<Node> &m : node->members) {
            QString token = m->name;
            token.replace(QLatin1Char('~'), QStringLiteral("~0"))
                .replace(QLatin1Char('/'), QStringLiteral("~1"));
            showErrorsOf(m.get(), path + QLatin1Char('/') + token, byPath);
        }
    } else if (node->kind == Node::Kind::Array) {
        for (size_t i = 0; i < node->items.size(); ++i)
            showErrorsOf(node->items[i].get(), path + QLatin1Char('/') + QString::number(i), byPath);
    }
}

} // namespace folio
