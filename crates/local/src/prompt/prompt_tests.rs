use super::*;
use hearth_llm::ToolSpec;
use hearth_protocol::ToolCall;
use std::sync::Arc;

/// SmolLM2-135M-Instruct's template, as its GGUF file carries it.
const SMOLLM2: &str = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

/// The shape of Qwen2.5's template: tools rendered by the template, calls from `tool_calls`.
const WITH_TOOLS: &str = "{%- if tools %}<|im_start|>system\n{{ messages[0].content }}\n<tools>{% for tool in tools %}\n{{ tool | tojson }}{% endfor %}\n</tools><|im_end|>\n{%- endif %}{%- for message in messages %}{%- if not (tools and loop.first) %}<|im_start|>{{ message.role }}\n{{ message.content }}{% if message.tool_calls %}{% for call in message.tool_calls %}<tool_call>{{ call.function | tojson }}</tool_call>{% endfor %}{% endif %}<|im_end|>\n{%- endif %}{%- endfor %}<|im_start|>assistant\n";

fn request(messages: Vec<ChatMessage>, tools: Vec<ToolSpec>) -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        system: "Be brief.".into(),
        messages,
        tools: Arc::from(tools),
        max_tokens: None,
        temperature: None,
        tool_choice: hearth_llm::ToolChoice::Auto,
    }
}

fn calculator() -> ToolSpec {
    ToolSpec {
        name: "calculator".into(),
        description: "Evaluates arithmetic".into(),
        parameters: json!({"type": "object", "properties": {"expression": {"type": "string"}}}),
    }
}

fn template(source: Option<&str>) -> Template<'_> {
    Template {
        source,
        bos_token: "<s>",
        eos_token: "</s>",
    }
}

#[test]
fn the_models_own_template_renders_the_chat_and_opens_the_reply() {
    let prompt = template(Some(SMOLLM2))
        .render(&request(vec![ChatMessage::user("Hi")], Vec::new()))
        .unwrap();
    assert_eq!(
        prompt,
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    );
}

#[test]
fn a_template_without_tools_gets_them_in_the_system_message_and_calls_as_text() {
    let call = ToolCall {
        id: "c1".into(),
        name: "calculator".into(),
        arguments: "{\"expression\":\"2+2\"}".into(),
        signature: None,
    };
    let messages = vec![
        ChatMessage::user("What is 2+2?"),
        ChatMessage::assistant("", vec![call]),
        ChatMessage::tool_result("c1", "calculator", "4"),
        ChatMessage::tool_result("c2", "calculator", "5"),
    ];
    let prompt = template(Some(SMOLLM2))
        .render(&request(messages, vec![calculator()]))
        .unwrap();
    assert!(
        prompt.starts_with("<|im_start|>system\nBe brief.\n\n# Tools"),
        "{prompt}"
    );
    assert!(prompt.contains("\"name\":\"calculator\""));
    assert!(prompt.contains(
        "<|im_start|>assistant\n<tool_call>\n{\"arguments\":{\"expression\":\"2+2\"},\"name\":\"calculator\"}\n</tool_call><|im_end|>"
    ), "{prompt}");
    // Two results in a row are one user turn.
    assert!(prompt.contains(
        "<|im_start|>user\n<tool_response>\n4\n</tool_response>\n\n<tool_response>\n5\n</tool_response><|im_end|>"
    ), "{prompt}");
    assert!(prompt.ends_with("<|im_start|>assistant\n"));
}

#[test]
fn a_template_with_tools_renders_them_itself() {
    let call = ToolCall {
        id: "c1".into(),
        name: "calculator".into(),
        arguments: "{\"expression\":\"2+2\"}".into(),
        signature: None,
    };
    let messages = vec![
        ChatMessage::user("What is 2+2?"),
        ChatMessage::assistant("", vec![call]),
    ];
    let template = template(Some(WITH_TOOLS));
    assert!(template.takes_tools());
    let prompt = template
        .render(&request(messages, vec![calculator()]))
        .unwrap();
    assert!(
        prompt.contains("<tools>\n{\"function\":{\"description\":\"Evaluates arithmetic\""),
        "{prompt}"
    );
    assert!(!prompt.contains("# Tools"));
    assert!(prompt.contains("<tool_call>{\"arguments\":{\"expression\":\"2+2\"},\"name\":\"calculator\"}</tool_call>"), "{prompt}");
}

#[test]
fn no_template_is_chatml_and_a_broken_one_is_a_clear_error() {
    let prompt = template(None)
        .render(&request(vec![ChatMessage::user("Hi")], Vec::new()))
        .unwrap();
    assert!(prompt.ends_with("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"));
    let error = template(Some("{% for %}"))
        .render(&request(vec![ChatMessage::user("Hi")], Vec::new()))
        .unwrap_err();
    assert!(error.contains("does not parse"), "{error}");
    let error = template(Some(
        "{{ raise_exception('Conversation roles must alternate') }}",
    ))
    .render(&request(vec![ChatMessage::user("Hi")], Vec::new()))
    .unwrap_err();
    assert!(error.contains("roles must alternate"), "{error}");
}
