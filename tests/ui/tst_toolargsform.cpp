// A list tool's argument form: integer arguments as spin boxes that start where the schema says
// (its default, else its minimum when required), an optional one not sent until set, and the
// page limit within the schema's bounds; the arguments of a walk are suggested to the next form.
#include "schemaform.h"
#include "testsettings.h"
#include "toolargsform.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTest>

using namespace folio;

class tst_ToolArgsForm : public QObject
{
    Q_OBJECT

private:
    static QJsonObject tool(const char *schema)
    {
        return {{QStringLiteral("name"), QStringLiteral("list_things")},
                {QStringLiteral("inputSchema"), QJsonDocument::fromJson(schema).object()}};
    }

    static QSpinBox *box(ToolArgsForm &form, int index)
    {
        const QList<QSpinBox *> boxes = form.findChildren<QSpinBox *>();
        return index < boxes.size() ? boxes.at(index) : nullptr;
    }

private Q_SLOTS:
    void initTestCase() { testsupport::useEmptyTestSettings("tst_toolargsform"); }

    void integerStartsWhereTheSchemaSays_data()
    {
        QTest::addColumn<QByteArray>("property");
        QTest::addColumn<bool>("required");
        QTest::addColumn<int>("shown");
        QTest::addColumn<QJsonValue>("sent"); // Undefined: not sent
        QTest::addRow("default") << QByteArray(R"({"type":"integer","minimum":1,"default":7})") << false << 7
                                 << QJsonValue(7);
        QTest::addRow("required minimum")
            << QByteArray(R"({"type":"integer","minimum":3})") << true << 3 << QJsonValue(3);
        QTest::addRow("required exclusive minimum")
            << QByteArray(R"({"type":"integer","exclusiveMinimum":0})") << true << 1 << QJsonValue(1);
        QTest::addRow("required unbounded")
            << QByteArray(R"({"type":"integer"})") << true << 0 << QJsonValue(0);
        QTest::addRow("required negative range")
            << QByteArray(R"({"type":"integer","minimum":-10,"maximum":-2})") << true << -2 << QJsonValue(-2);
        QTest::addRow("optional not set") << QByteArray(R"({"type":"integer","minimum":1})") << false << 0
                                          << QJsonValue(QJsonValue::Undefined);
        QTest::addRow("default out of range")
            << QByteArray(R"({"type":"integer","minimum":1,"maximum":5,"default":50})") << false << 5
            << QJsonValue(5);
    }

    void integerStartsWhereTheSchemaSays()
    {
        QFETCH(QByteArray, property);
        QFETCH(bool, required);
        QFETCH(int, shown);
        QFETCH(QJsonValue, sent);
        const QByteArray schema =
            "{\"type\":\"object\",\"properties\":{\"cursor\":{\"type\":\"string\"},\"n\":" + property + "}" +
            (required ? ",\"required\":[\"n\"]}" : "}");
        ToolArgsForm form;
        form.setTool(tool(schema.constData()), QStringLiteral("cursor"), QString());
        QSpinBox *n = box(form, 0);
        QVERIFY(n);
        if (sent.isUndefined()) {
            QCOMPARE(n->value(), n->minimum());
            QCOMPARE(n->text(), QStringLiteral("(not set)"));
            QVERIFY(!form.arguments().contains(QStringLiteral("n")));
            n->stepUp(); // the schema's minimum, sent
            QCOMPARE(form.arguments().value(QStringLiteral("n")), QJsonValue(n->minimum() + 1));
            return;
        }
        QCOMPARE(n->value(), shown);
        QCOMPARE(form.arguments().value(QStringLiteral("n")), sent);
    }

    void limitWithinTheSchemasBounds()
    {
        ToolArgsForm form;
        form.setTool(tool(R"({"type":"object","properties":{"cursor":{"type":"string"},
                               "limit":{"type":"integer","minimum":5,"maximum":50}}})"),
                     QStringLiteral("cursor"), QStringLiteral("limit"));
        QSpinBox *limit = box(form, 0);
        QVERIFY(limit);
        QCOMPARE(limit->minimum(), 5);
        QCOMPARE(limit->maximum(), 50);
        QCOMPARE(limit->value(), 20);
        QVERIFY(!form.limit()); // until ticked
        form.findChild<QCheckBox *>()->setChecked(true);
        QCOMPARE(form.limit(), std::optional<int>(20));

        ToolArgsForm small;
        small.setTool(tool(R"({"type":"object","properties":{"cursor":{"type":"string"},
                                "limit":{"type":"integer","maximum":10,"default":8}}})"),
                      QStringLiteral("cursor"), QStringLiteral("limit"));
        QCOMPARE(box(small, 0)->value(), 8);
        QCOMPARE(box(small, 0)->minimum(), 1);
    }

    void aWalksArgumentsAreSuggestedNextTime()
    {
        const QJsonObject t = tool(R"({"type":"object","properties":{"cursor":{"type":"string"},
            "channel":{"type":"string","default":"town-square","examples":["help-android"]},
            "api_token":{"type":"string"}}})");
        const ArgumentSuggestions whose(QStringLiteral("demo"), QStringLiteral("list_things"));
        ToolArgsForm form;
        form.setSuggestions(whose);
        form.setTool(t, QStringLiteral("cursor"), QString());
        QCOMPARE(form.form()->suggestionsFor(QStringLiteral("channel")),
                 (QStringList{QStringLiteral("help-android"), QStringLiteral("town-square")}));
        form.form()
            ->findChild<QLineEdit *>(QStringLiteral("field:channel"))
            ->setText(QStringLiteral("off-topic"));
        form.form()
            ->findChild<QLineEdit *>(QStringLiteral("field:api_token"))
            ->setText(QStringLiteral("s3cr3t-value"));
        QPushButton *walk = nullptr;
        for (QPushButton *b : form.findChildren<QPushButton *>()) {
            if (b->text() == QLatin1String("Walk with these arguments"))
                walk = b;
        }
        QVERIFY(walk);
        walk->click(); // the walk asked for: its arguments are remembered

        ToolArgsForm next;
        next.setSuggestions(whose);
        next.setTool(t, QStringLiteral("cursor"), QString());
        QCOMPARE(next.form()->suggestionsFor(QStringLiteral("channel")),
                 (QStringList{QStringLiteral("off-topic"), QStringLiteral("help-android"),
                              QStringLiteral("town-square")}));
        // A secret is never remembered; the cursor is the walk's, not a field.
        QCOMPARE(next.form()->suggestionsFor(QStringLiteral("api_token")), QStringList());
        QCOMPARE(next.form()->suggestionsFor(QStringLiteral("cursor")), QStringList());
    }
};

QTEST_MAIN(tst_ToolArgsForm)
#include "tst_toolargsform.moc"
