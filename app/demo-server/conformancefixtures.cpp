#include "conformancefixtures.h"

#include "content.h"
#include "media.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace demo {

namespace {

constexpr int invalidParams = -32602;

QJsonObject stringSchema(const QString &property, const QString &type = u"string"_s)
{
    return QJsonObject{{u"type"_s, u"object"_s},
                       {u"properties"_s, QJsonObject{{property, QJsonObject{{u"type"_s, type}}}}},
                       {u"required"_s, QJsonArray{property}}};
}

QJsonObject textResult(const QString &text)
{
    return Blocks::toolResult({Blocks::text(text)});
}

QJsonObject userMessage(const QJsonObject &content)
{
    return QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, content}};
}

// The text a sampling answer carries, if it is one.
std::optional<QString> sampled(const QJsonObject &responses, const QString &key)
{
    const QJsonValue value = responses.value(key);
    const QJsonValue text = value[u"content"_s][u"text"_s];
    if (!value.isObject() || !text.isString())
        return std::nullopt;
    return text.toString();
}

// The roots a roots/list answer carries, if it is one.
std::optional<QStringList> rootsOf(const QJsonObject &responses, const QString &key)
{
    const QJsonValue roots = responses.value(key)[u"roots"_s];
    if (!roots.isArray())
        return std::nullopt;
    QStringList uris;
    for (const QJsonValue &root : roots.toArray())
        uris.append(root[u"uri"_s].toString());
    return uris;
}

} // namespace

ConformanceFixtures::ConformanceFixtures(const InputRequests &inputRequests)
    : m_inputRequests(inputRequests)
{}

std::optional<Answer> ConformanceFixtures::callTool(const QString &name, const QJsonObject &arguments,
                                                    const CallContext &context) const
{
    if (name == u"greet"_s) // the tasks scenarios' sync-only tool
        return Answer::ok(
            Blocks::toolResult({Blocks::text(u"Hello, %1!"_s.arg(arguments.value(u"name"_s).toString()))}));
    if (name == u"test_image_content"_s)
        return Answer::ok(Blocks::toolResult({Blocks::image(Media::png())}));
    if (name == u"test_audio_content"_s)
        return Answer::ok(Blocks::toolResult({Blocks::audio(Media::wav())}));
    if (name == u"test_embedded_resource"_s) {
        return Answer::ok(Blocks::toolResult({Blocks::resource(u"test://embedded-resource"_s, u"text/plain"_s,
                                                               u"This is an embedded resource content."_s)}));
    }
    if (name == u"test_multiple_content_types"_s) {
        return Answer::ok(
            Blocks::toolResult({Blocks::text(u"Multiple content types test:"_s), Blocks::image(Media::png()),
                                Blocks::resource(u"test://mixed-content-resource"_s, u"application/json"_s,
                                                 u"{\"test\":\"data\",\"value\":123}"_s)}));
    }
    if (name == u"test_error_handling"_s)
        return Answer::ok(Blocks::toolResult(
            {Blocks::text(u"This tool intentionally returns an error for testing"_s)}, true));
    if (name == u"test_tool_with_progress"_s) // 0, 50 and 100 of 100, 50 ms apart
        return Answer::progress(textResult(u"Progress test completed."_s), 2, 50);
    if (name == u"json_schema_2020_12_tool"_s) {
        return Answer::ok(textResult(u"Received %1"_s.arg(
            QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact)))));
    }
    if (name.startsWith(u"test_input_required_result_"_s))
        return inputRequired(name, context);
    return std::nullopt;
}

Answer ConformanceFixtures::inputRequired(const QString &name, const CallContext &context) const
{
    if (!context.modern)
        return Answer::ok(Blocks::toolResult(
            {Blocks::text(
                u"%1 needs 2026-07-28: input_required results do not exist before it."_s.arg(name))},
            true));
    std::optional<Answer> protocolError;
    const QJsonObject responses = InputRequests::responses(context.params, &protocolError);
    if (protocolError)
        return *protocolError;
    const QJsonValue stateValue = context.params.value(u"requestState"_s);
    const bool retried = !responses.isEmpty() || stateValue.isString();
    std::optional<QJsonObject> state;
    if (stateValue.isString()) {
        state = m_inputRequests.verify(stateValue.toString());
        if (!state || state->value(u"tool"_s).toString() != name)
            return Answer::error(invalidParams, u"Invalid params: requestState failed its integrity check"_s);
    }
    const QJsonObject userName{
        {u"user_name"_s, InputRequests::elicitation(u"What is your name?"_s, stringSchema(u"name"_s))}};
    auto ask = [this, &name](const QJsonObject &requests, QJsonObject memory = {}) {
        memory.insert(u"tool"_s, name);
        return Answer::ok(InputRequests::inputRequired(requests, m_inputRequests.sign(memory)));
    };

    if (name == u"test_input_required_result_elicitation"_s) {
        const auto answer = InputRequests::accepted(responses, u"user_name"_s);
        if (!answer || !answer->value(u"name"_s).isString())
            return Answer::ok(InputRequests::inputRequired(userName));
        return Answer::ok(textResult(u"Hello, %1!"_s.arg(answer->value(u"name"_s).toString())));
    }
    if (name == u"test_input_required_result_sampling"_s) {
        const auto text = sampled(responses, u"capital_question"_s);
        if (!text) {
            return Answer::ok(InputRequests::inputRequired(QJsonObject{
                {u"capital_question"_s, InputRequests::sampling(u"What is the capital of France?"_s, 100)}}));
        }
        return Answer::ok(textResult(u"The client's model answered: %1"_s.arg(*text)));
    }
    if (name == u"test_input_required_result_list_roots"_s) {
        const auto roots = rootsOf(responses, u"client_roots"_s);
        if (!roots)
            return Answer::ok(
                InputRequests::inputRequired(QJsonObject{{u"client_roots"_s, InputRequests::roots()}}));
        return Answer::ok(
            textResult(u"The client has %1 root(s): %2"_s.arg(roots->size()).arg(roots->join(u", "_s))));
    }
    if (name == u"test_input_required_result_request_state"_s ||
        name == u"test_input_required_result_tampered_state"_s) {
        const QJsonObject confirm{
            {u"confirm"_s,
             InputRequests::elicitation(u"Please confirm"_s, stringSchema(u"ok"_s, u"boolean"_s))}};
        const auto answer = InputRequests::accepted(responses, u"confirm"_s);
        if (!state || !answer)
            return ask(confirm);
        return Answer::ok(textResult(u"state-ok: the requestState verified and ok is %1."_s.arg(
            answer->value(u"ok"_s).toBool() ? u"true"_s : u"false"_s)));
    }
    if (name == u"test_input_required_result_multiple_inputs"_s ||
        name == u"test_input_required_result_capabilities"_s) {
        QJsonObject requests;
        const QJsonObject &caps = context.clientCapabilities;
        const bool all = name == u"test_input_required_result_multiple_inputs"_s;
        if (all || caps.contains(u"elicitation"_s))
            requests.insert(u"user_name"_s, userName.value(u"user_name"_s));
        if (all || caps.contains(u"sampling"_s))
            requests.insert(u"greeting"_s, InputRequests::sampling(u"Generate a greeting"_s, 50));
        if (all || caps.contains(u"roots"_s))
            requests.insert(u"client_roots"_s, InputRequests::roots());
        if (requests.isEmpty())
            return Answer::ok(textResult(u"The client declared none of elicitation, sampling and roots: "
                                         "nothing to ask."_s));
        // Ask again for whatever is still missing.
        QJsonObject missing;
        QStringList got;
        for (auto it = requests.begin(); it != requests.end(); ++it) {
            const QString key = it.key();
            if (key == u"user_name"_s) {
                const auto answer = InputRequests::accepted(responses, key);
                if (answer && answer->value(u"name"_s).isString())
                    got.append(u"name %1"_s.arg(answer->value(u"name"_s).toString()));
                else
                    missing.insert(key, it.value());
            } else if (key == u"greeting"_s) {
                if (const auto text = sampled(responses, key))
                    got.append(u"greeting \"%1\""_s.arg(*text));
                else
                    missing.insert(key, it.value());
            } else if (const auto roots = rootsOf(responses, key)) {
                got.append(u"%1 root(s)"_s.arg(roots->size()));
            } else {
                missing.insert(key, it.value());
            }
        }
        if (!retried || !missing.isEmpty())
            return ask(missing.isEmpty() ? requests : missing);
        return Answer::ok(textResult(u"Got everything: %1."_s.arg(got.join(u", "_s))));
    }
    if (name == u"test_input_required_result_multi_round"_s) {
        const int round = state ? state->value(u"round"_s).toInt() : 0;
        if (round == 1) {
            const auto answer = InputRequests::accepted(responses, u"step1"_s);
            if (answer && answer->value(u"name"_s).isString()) {
                return ask(QJsonObject{{u"step2"_s,
                                        InputRequests::elicitation(u"Step 2: What is your favorite color?"_s,
                                                                   stringSchema(u"color"_s))}},
                           QJsonObject{{u"round"_s, 2}, {u"name"_s, answer->value(u"name"_s)}});
            }
        } else if (round == 2) {
            const auto answer = InputRequests::accepted(responses, u"step2"_s);
            if (answer && answer->value(u"color"_s).isString()) {
                return Answer::ok(textResult(u"%1's favorite color is %2."_s.arg(
                    state->value(u"name"_s).toString(), answer->value(u"color"_s).toString())));
            }
            return ask(
                QJsonObject{{u"step2"_s, InputRequests::elicitation(u"Step 2: What is your favorite color?"_s,
                                                                    stringSchema(u"color"_s))}},
                QJsonObject{{u"round"_s, 2}, {u"name"_s, state->value(u"name"_s)}});
        }
        return ask(QJsonObject{{u"step1"_s, InputRequests::elicitation(u"Step 1: What is your name?"_s,
                                                                       stringSchema(u"name"_s))}},
                   QJsonObject{{u"round"_s, 1}});
    }
    return Answer::error(invalidParams, u"Unknown tool: %1"_s.arg(name));
}

std::optional<Answer> ConformanceFixtures::getPrompt(const QString &name, const QJsonObject &arguments,
                                                     const CallContext &context) const
{
    auto messages = [](const QJsonArray &list) { return Answer::ok(QJsonObject{{u"messages"_s, list}}); };
    if (name == u"test_simple_prompt"_s)
        return messages({userMessage(Blocks::text(u"This is a simple prompt for testing."_s))});
    if (name == u"test_prompt_with_arguments"_s) {
        if (!arguments.value(u"arg1"_s).isString())
            return Answer::error(invalidParams,
                                 u"Invalid params: prompt %1 needs the argument arg1"_s.arg(name));
        return messages({userMessage(Blocks::text(u"Prompt with arguments: arg1='%1', arg2='%2'"_s.arg(
            arguments.value(u"arg1"_s).toString(), arguments.value(u"arg2"_s).toString())))});
    }
    if (name == u"test_prompt_with_embedded_resource"_s) {
        const QString uri = arguments.value(u"resourceUri"_s).toString();
        if (uri.isEmpty())
            return Answer::error(invalidParams,
                                 u"Invalid params: prompt %1 needs the argument resourceUri"_s.arg(name));
        return messages(
            {userMessage(Blocks::resource(uri, u"text/plain"_s, u"Embedded resource content for testing."_s)),
             userMessage(Blocks::text(u"Please process the embedded resource above."_s))});
    }
    if (name == u"test_prompt_with_image"_s) {
        return messages({userMessage(Blocks::image(Media::png())),
                         userMessage(Blocks::text(u"Please analyze the image above."_s))});
    }
    if (name == u"test_input_required_result_prompt"_s) {
        if (!context.modern)
            return messages({userMessage(Blocks::text(u"This prompt asks for input on 2026-07-28 only."_s))});
        std::optional<Answer> protocolError;
        const QJsonObject responses = InputRequests::responses(context.params, &protocolError);
        if (protocolError)
            return *protocolError;
        const auto answer = InputRequests::accepted(responses, u"user_context"_s);
        if (!answer || !answer->value(u"context"_s).isString()) {
            return Answer::ok(InputRequests::inputRequired(QJsonObject{
                {u"user_context"_s, InputRequests::elicitation(u"What context should the prompt use?"_s,
                                                               stringSchema(u"context"_s))}}));
        }
        return messages({userMessage(
            Blocks::text(u"Use this context: %1"_s.arg(answer->value(u"context"_s).toString())))});
    }
    return std::nullopt;
}

std::optional<QJsonObject> ConformanceFixtures::read(const QString &uri, bool modern) const
{
    QJsonObject contents{{u"uri"_s, uri}};
    static const QRegularExpression templated(u"^test://template/([^/]+)/data$"_s);
    const QRegularExpressionMatch match = templated.match(uri);
    if (uri == u"test://static-text"_s) {
        contents.insert(u"mimeType"_s, u"text/plain"_s);
        contents.insert(u"text"_s, u"This is the content of the static text resource."_s);
    } else if (uri == u"test://watched-resource"_s) {
        // What resources-subscribe and resources-unsubscribe (2025-11-25) subscribe to: it must be
        // readable for the subscription to be granted. Nothing changes it.
        contents.insert(u"mimeType"_s, u"text/plain"_s);
        contents.insert(u"text"_s, u"This resource is watched by the subscription scenarios."_s);
    } else if (uri == u"test://static-binary"_s) {
        contents.insert(u"mimeType"_s, u"image/png"_s);
        contents.insert(u"blob"_s, QString::fromLatin1(Media::png().toBase64()));
    } else if (match.hasMatch()) {
        contents.insert(u"mimeType"_s, u"application/json"_s);
        contents.insert(
            u"text"_s,
            QString::fromUtf8(QJsonDocument(QJsonObject{{u"id"_s, match.captured(1)},
                                                        {u"templateTest"_s, true},
                                                        {u"data"_s, u"Data for ID: "_s + match.captured(1)}})
                                  .toJson(QJsonDocument::Compact)));
    } else {
        return std::nullopt;
    }
    QJsonObject result{{u"contents"_s, QJsonArray{contents}}};
    if (modern) {
        result.insert(u"ttlMs"_s, 60000);
        result.insert(u"cacheScope"_s, u"public"_s);
    }
    return result;
}

} // namespace demo
