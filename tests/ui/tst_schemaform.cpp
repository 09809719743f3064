// SchemaForm: a form from a JSON Schema (a tool's inputSchema, an elicitation's requestedSchema)
// and the JSON editor beside it, driven with QTest input offscreen.
#include "schemaform.h"
#include "settingskeys.h"
#include "testjson.h"
#include "testsettings.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QCoreApplication>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>

using namespace folio;
using testsupport::jsonObject;

namespace {

template<typename T> T *field(SchemaForm &form, const QString &name)
{
    return form.findChild<T *>(QStringLiteral("field:") + name);
}

QStringList labels(SchemaForm &form)
{
    QStringList out;
    const QList<QLabel *> all = form.findChildren<QLabel *>();
    for (QLabel *l : all) {
        if (l->buddy())
            out << l->text();
    }
    return out;
}

} // namespace

class tst_SchemaForm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void fieldsFromTheSchema();
    void typingFillsTheValues();
    void problemPerField();
    void nestedObjectAndArray();
    void localRefResolvedRemoteNot();
    void jsonEditorInSyncBothWays();
    void formRefusesWhatItCannotShow();
    void elicitationDefaults();
    void suggestsTheSchemasValuesAndWhatWasGiven();
    void aHostileSchemasSuggestionsAreBounded();
};

void tst_SchemaForm::initTestCase()
{
    testsupport::useEmptyTestSettings("tst_schemaform");
}

void tst_SchemaForm::fieldsFromTheSchema()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{
        "city":{"type":"string","description":"Where"},
        "units":{"type":"string","enum":["metric","imperial"],"default":"metric"},
        "days":{"type":"integer","minimum":1,"maximum":7,"default":3},
        "detailed":{"type":"boolean"}},
        "required":["city"]})"));
    QVERIFY(labels(form).contains(QStringLiteral("city *")));
    QVERIFY(labels(form).contains(QStringLiteral("units")));
    QCOMPARE(field<QLineEdit>(form, QStringLiteral("city"))->toolTip(), QStringLiteral("Where"));
    QComboBox *units = field<QComboBox>(form, QStringLiteral("units"));
    QVERIFY(units);
    QCOMPARE(units->currentText(), QStringLiteral("metric"));
    QCOMPARE(field<QSpinBox>(form, QStringLiteral("days"))->value(), 3);
    QVERIFY(field<QComboBox>(form, QStringLiteral("detailed"))); // optional boolean: three ways
    // Defaults are sent; the required city is missing, and the form says so.
    QCOMPARE(form.values(), jsonObject(R"({"units":"metric","days":3})"));
    QCOMPARE(form.problem(), QStringLiteral("city: required, and missing"));
}

void tst_SchemaForm::typingFillsTheValues()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string"}},
                           "required":["a"]})"));
    QSignalSpy changed(&form, &SchemaForm::changed);
    QSignalSpy submitted(&form, &SchemaForm::submitted);
    QTest::keyClicks(field<QLineEdit>(form, QStringLiteral("a")), QStringLiteral("2.5"));
    QVERIFY(changed.count() >= 3);
    QCOMPARE(form.values(), jsonObject(R"({"a":2.5})"));
    QTest::keyClick(field<QLineEdit>(form, QStringLiteral("a")), Qt::Key_Return);
    QCOMPARE(submitted.count(), 1);
}

void tst_SchemaForm::problemPerField()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{"n":{"type":"number","maximum":10},
                           "s":{"type":"string","pattern":"^[a-z]+$"}},"required":["n","s"]})"));
    form.show();
    QTest::keyClicks(field<QLineEdit>(form, QStringLiteral("n")), QStringLiteral("twelve"));
    QCOMPARE(form.problem(), QStringLiteral("n: \"twelve\" is not a number"));
    field<QLineEdit>(form, QStringLiteral("n"))->clear();
    QTest::keyClicks(field<QLineEdit>(form, QStringLiteral("n")), QStringLiteral("12"));
    QTest::keyClicks(field<QLineEdit>(form, QStringLiteral("s")), QStringLiteral("ab"));
    QCOMPARE(form.problem(), QStringLiteral("n: must be at most 10"));
    // Shown under the field itself.
    bool shown = false;
    const QList<QLabel *> errors = form.findChildren<QLabel *>(QStringLiteral("fieldError"));
    for (QLabel *l : errors)
        shown = shown || (l->isVisible() && l->text() == QLatin1String("must be at most 10"));
    QVERIFY(shown);
}

void tst_SchemaForm::nestedObjectAndArray()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{
        "address":{"type":"object","properties":{"street":{"type":"string"}},"required":["street"]},
        "tags":{"type":"array","items":{"type":"string"}}},
        "required":["address"]})"));
    QVERIFY(field<QGroupBox>(form, QStringLiteral("address")));
    QPushButton *add = form.findChild<QPushButton *>(QStringLiteral("addItem"));
    QVERIFY(add);
    QTest::mouseClick(add, Qt::LeftButton);
    QTest::mouseClick(add, Qt::LeftButton);
    QList<QLineEdit *> items = form.findChildren<QLineEdit *>(QStringLiteral("field:"));
    QCOMPARE(items.size(), 2); // the items (unnamed)
    items.at(0)->setText(QStringLiteral("red"));
    items.at(1)->setText(QStringLiteral("blue"));
    QCOMPARE(form.values().value(QStringLiteral("tags")).toArray(),
             (QJsonArray{QStringLiteral("red"), QStringLiteral("blue")}));
    QTest::mouseClick(form.findChildren<QToolButton *>(QStringLiteral("removeItem")).first(), Qt::LeftButton);
    QCOMPARE(form.values().value(QStringLiteral("tags")).toArray(), (QJsonArray{QStringLiteral("blue")}));
    field<QLineEdit>(form, QStringLiteral("street"))->setText(QStringLiteral("Main St"));
    QCOMPARE(form.values().value(QStringLiteral("address")).toObject(),
             jsonObject(R"({"street":"Main St"})"));
}

void tst_SchemaForm::localRefResolvedRemoteNot()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{
        "color":{"$ref":"#/$defs/Color"},
        "remote":{"$ref":"https://example.com/never-fetched.json"}},
        "$defs":{"Color":{"enum":["red","green"]}}})"));
    QVERIFY(field<QComboBox>(form, QStringLiteral("color")));
    // Not followed: a field for any JSON value, and a check that says the $ref was not followed.
    QVERIFY(field<QLineEdit>(form, QStringLiteral("remote")));
    field<QLineEdit>(form, QStringLiteral("remote"))->setText(QStringLiteral("1"));
    QVERIFY2(form.problem().contains(QLatin1String("not followed")), qPrintable(form.problem()));
}

void tst_SchemaForm::jsonEditorInSyncBothWays()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},
                           "required":["q"]})"));
    field<QLineEdit>(form, QStringLiteral("q"))->setText(QStringLiteral("cats"));
    QVERIFY(form.showJson(true));
    QPlainTextEdit *json = form.findChild<QPlainTextEdit *>(QStringLiteral("schemaFormJson"));
    QCOMPARE(QJsonDocument::fromJson(json->toPlainText().toUtf8()).object(), jsonObject(R"({"q":"cats"})"));
    json->setPlainText(QStringLiteral(R"({"q":"dogs","n":4,"extra":true})"));
    QCOMPARE(form.values(), jsonObject(R"({"q":"dogs","n":4,"extra":true})"));
    json->setPlainText(QStringLiteral(R"({"q":)"));
    QVERIFY(form.problem().startsWith(QLatin1String("The JSON does not parse")));
    QVERIFY(!form.showJson(false)); // not until it parses
    json->setPlainText(QStringLiteral(R"({"q":"dogs","n":4,"extra":true})"));
    QVERIFY(form.showJson(false));
    QCOMPARE(field<QLineEdit>(form, QStringLiteral("q"))->text(), QStringLiteral("dogs"));
    QCOMPARE(field<QSpinBox>(form, QStringLiteral("n"))->value(), 4);
    QCOMPARE(form.values(), jsonObject(R"({"q":"dogs","n":4,"extra":true})")); // the extra member kept
}

void tst_SchemaForm::formRefusesWhatItCannotShow()
{
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{"q":{"type":"string"}}})"));
    QVERIFY(form.showJson(true));
    form.findChild<QPlainTextEdit *>(QStringLiteral("schemaFormJson"))
        ->setPlainText(QStringLiteral(R"({"q":42})"));
    QVERIFY(!form.showJson(false));
    QVERIFY(form.isShowingJson());
    QCOMPARE(form.values(), jsonObject(R"({"q":42})"));
    QVERIFY(form.problem().contains(QLatin1String("expected a string")));
}

void tst_SchemaForm::elicitationDefaults()
{
    // An elicitation's requestedSchema: a flat object of primitives with defaults (SEP-1034).
    SchemaForm form;
    form.setSchema(jsonObject(R"({"type":"object","properties":{
        "name":{"type":"string","default":"Ada"},
        "age":{"type":"integer","default":36},
        "score":{"type":"number","default":9.5},
        "subscribe":{"type":"boolean","default":true},
        "plan":{"type":"string","oneOf":[{"const":"free","title":"Free"},{"const":"pro","title":"Pro"}],"default":"pro"}},
        "required":["name"]})"));
    QCOMPARE(form.values(),
             jsonObject(R"({"name":"Ada","age":36,"score":9.5,"subscribe":true,"plan":"pro"})"));
    QCOMPARE(form.problem(), QString());
    QCOMPARE(field<QComboBox>(form, QStringLiteral("plan"))->currentText(), QStringLiteral("Pro (pro)"));
    form.setValues(jsonObject(R"({"name":"Grace","plan":"free"})"));
    QCOMPARE(form.values(), jsonObject(R"({"name":"Grace","plan":"free"})"));
}

void tst_SchemaForm::suggestsTheSchemasValuesAndWhatWasGiven()
{
    const QJsonObject schema = jsonObject(R"({"type":"object","properties":{
        "channel":{"type":"string","examples":["town-square","off-topic"]},
        "size":{"type":"string","default":"small"},
        "kind":{"enum":["a","b"]},
        "ratio":{"type":"number","examples":[0.5,2]},
        "tags":{"type":"array","items":{"type":"string","examples":["urgent"]}},
        "note":{"type":"string"}},"required":["channel"]})");
    const ArgumentSuggestions whose(QStringLiteral("demo"), QStringLiteral("post_message"));
    SchemaForm form;
    form.setSuggestions(whose);
    form.setSchema(schema);
    QCOMPARE(form.suggestionsFor(QStringLiteral("channel")),
             (QStringList{QStringLiteral("town-square"), QStringLiteral("off-topic")}));
    QCOMPARE(form.suggestionsFor(QStringLiteral("size")), QStringList{QStringLiteral("small")});
    QCOMPARE(form.suggestionsFor(QStringLiteral("ratio")),
             (QStringList{QStringLiteral("0.5"), QStringLiteral("2")}));
    // An enum is a combo box already; a field with nothing known has no completer.
    QVERIFY(field<QComboBox>(form, QStringLiteral("kind")));
    QCOMPARE(form.suggestionsFor(QStringLiteral("kind")), QStringList());
    QVERIFY(!field<QLineEdit>(form, QStringLiteral("note"))->completer());
    // An array's string items suggest their schema's examples.
    QTest::mouseClick(form.findChild<QPushButton *>(QStringLiteral("addItem")), Qt::LeftButton);
    QLineEdit *tag = nullptr;
    for (QLineEdit *e : form.findChildren<QLineEdit *>()) {
        if (e->objectName() == QLatin1String("field:") && e->completer())
            tag = e;
    }
    QVERIFY(tag);
    QCOMPARE(tag->completer()->model()->index(0, 0).data().toString(), QStringLiteral("urgent"));
    tag->setText(QStringLiteral("urgent"));

    // Choosing a suggestion fills the field, as typing would.
    form.show();
    QVERIFY(QTest::qWaitForWindowActive(&form));
    auto *channel = field<QLineEdit>(form, QStringLiteral("channel"));
    channel->setFocus();
    QTRY_VERIFY(channel->hasFocus());
    QSignalSpy changed(&form, &SchemaForm::changed);
    QTest::keyClicks(channel, QStringLiteral("off"));
    QTRY_VERIFY(channel->completer()->popup()->isVisible());
    QCOMPARE(channel->completer()->completionCount(), 1);
    QTest::keyClick(channel->completer()->popup(), Qt::Key_Down);
    QTest::keyClick(channel->completer()->popup(), Qt::Key_Return);
    QTRY_COMPARE(channel->text(), QStringLiteral("off-topic"));
    QTRY_COMPARE(form.values().value(QStringLiteral("channel")).toString(), QStringLiteral("off-topic"));
    QTRY_VERIFY(!changed.isEmpty());
    QCOMPARE(form.problem(), QString());

    // Given once (a call sent with them), offered first from then on, in this form and a new one.
    channel->setText(QStringLiteral("random"));
    field<QLineEdit>(form, QStringLiteral("note"))->setText(QStringLiteral("see you"));
    form.rememberValues();
    QCOMPARE(
        form.suggestionsFor(QStringLiteral("channel")),
        (QStringList{QStringLiteral("random"), QStringLiteral("town-square"), QStringLiteral("off-topic")}));
    SchemaForm later;
    later.setSuggestions(ArgumentSuggestions(QStringLiteral("demo"), QStringLiteral("post_message")));
    later.setSchema(schema);
    QCOMPARE(
        later.suggestionsFor(QStringLiteral("channel")),
        (QStringList{QStringLiteral("random"), QStringLiteral("town-square"), QStringLiteral("off-topic")}));
    QCOMPARE(later.suggestionsFor(QStringLiteral("size")), QStringList{QStringLiteral("small")}); // once
    QCOMPARE(later.suggestionsFor(QStringLiteral("note")), QStringList{QStringLiteral("see you")});
    QVERIFY(field<QLineEdit>(later, QStringLiteral("note"))->completer());
    // The form's own values are not changed by what it remembers: a new form starts at the defaults.
    QCOMPARE(later.values().value(QStringLiteral("channel")), QJsonValue(QJsonValue::Undefined));
    // A form that is not told whose it is (an elicitation) remembers nothing.
    SchemaForm anonymous;
    anonymous.setSchema(schema);
    QCOMPARE(anonymous.suggestionsFor(QStringLiteral("channel")),
             (QStringList{QStringLiteral("town-square"), QStringLiteral("off-topic")}));
}

void tst_SchemaForm::aHostileSchemasSuggestionsAreBounded()
{
    QJsonArray examples;
    examples.append(QString(1 << 20, QLatin1Char('x')));
    examples.append(QStringLiteral("ring\x07"
                                   "bell"));
    examples.append(QString::fromUtf8("rtl\u202Eoverride"));
    for (int i = 0; i < 5000; ++i)
        examples.append(QStringLiteral("value-%1").arg(i));
    QJsonObject property{{QStringLiteral("type"), QStringLiteral("string")},
                         {QStringLiteral("examples"), examples}};
    QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), QJsonObject{{QStringLiteral("q"), property}}}};
    SchemaForm form;
    form.resize(400, 300);
    form.setSchema(schema);
    const QStringList offered = form.suggestionsFor(QStringLiteral("q"));
    QCOMPARE(offered.size(), ArgumentSuggestions::maxSuggestions);
    QCOMPARE(offered.first(), QStringLiteral("value-0"));
    // The field keeps its width: the form is laid out as for any string.
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    QVERIFY(field<QLineEdit>(form, QStringLiteral("q"))->width() <= form.width());
    QVERIFY(form.sizeHint().width() < 1000);
}

QTEST_MAIN(tst_SchemaForm)
#include "tst_schemaform.moc"
