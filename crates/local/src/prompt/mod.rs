//! A chat request rendered through the model's own chat template (Jinja, from its GGUF
//! metadata) into the one prompt string the worker tokenizes. Templates that take `tools` get
//! them in the OpenAI shape; for the others the tools are described in the system message and
//! calls and results travel as Hermes-style `<tool_call>` / `<tool_response>` text.

mod tools_text;

use hearth_llm::{function_tool, text_without_media, ChatMessage, ChatRequest};
use hearth_protocol::Role;
use minijinja::{context, Environment, Error, ErrorKind};
use serde_json::{json, Value};

pub(crate) use tools_text::{CALL_CLOSER, CALL_TRIGGER};

/// ChatML, for a model whose file carries no template.
const CHATML: &str = "{% for message in messages %}<|im_start|>{{ message.role }}\n\
{{ message.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

/// What a template is rendered with, besides the messages.
pub(crate) struct Template<'a> {
    pub source: Option<&'a str>,
    pub bos_token: &'a str,
    pub eos_token: &'a str,
}

impl Template<'_> {
    /// Whether the template renders `tools` itself (and so the calls and results in its own
    /// way).
    pub(crate) fn takes_tools(&self) -> bool {
        self.source.is_some_and(|s| s.contains("tools"))
    }

    /// The prompt for `request`, ending where the assistant's reply begins.
    pub(crate) fn render(&self, request: &ChatRequest) -> Result<String, String> {
        let native = self.takes_tools();
        let mut messages = Vec::new();
        let mut system = request.system.clone();
        if !native && !request.tools.is_empty() {
            system = tools_text::with_tools(&system, &request.tools);
        }
        if !system.trim().is_empty() {
            messages.push(json!({"role": "system", "content": system}));
        }
        for message in &request.messages {
            messages.push(if native {
                native_message(message)
            } else {
                text_message(message)
            });
        }
        if !native {
            messages = merged(messages);
        }
        let tools: Vec<Value> = request.tools.iter().map(function_tool).collect();
        let mut environment = Environment::new();
        environment
            .set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        environment.add_function("raise_exception", |message: String| -> Result<(), Error> {
            Err(Error::new(ErrorKind::InvalidOperation, message))
        });
        environment.add_function("strftime_now", |format: String| today(&format));
        environment
            .add_template("chat", self.source.unwrap_or(CHATML))
            .map_err(|e| format!("its chat template does not parse: {e}"))?;
        let template = environment
            .get_template("chat")
            .map_err(|e| e.to_string())?;
        template
            .render(context! {
                messages => messages,
                tools => (native && !tools.is_empty()).then_some(tools),
                add_generation_prompt => true,
                bos_token => self.bos_token,
                eos_token => self.eos_token,
            })
            .map_err(|e| format!("its chat template failed: {e}"))
    }
}

/// Today's date as a template asks for it (`strftime_now("%d %b %Y")`); a format chrono cannot
/// follow gives the ISO date.
fn today(format: &str) -> String {
    use std::fmt::Write;
    let now = chrono::Local::now();
    let mut text = String::new();
    if write!(text, "{}", now.format(format)).is_err() {
        return now.format("%Y-%m-%d").to_string();
    }
    text
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

/// A message for a template that knows tools: OpenAI-shaped `tool_calls` (arguments as an
/// object, as Qwen's and Llama's templates expect) and `tool` messages.
fn native_message(message: &ChatMessage) -> Value {
    let mut value = json!({
        "role": role_name(message.role),
        "content": text_without_media(&message.content),
    });
    if !message.tool_calls.is_empty() {
        let calls: Vec<Value> = message
            .tool_calls
            .iter()
            .map(|call| {
                json!({"id": call.id, "type": "function", "function": {
                    "name": call.name,
                    "arguments": tools_text::arguments_value(&call.arguments),
                }})
            })
            .collect();
        value["tool_calls"] = Value::Array(calls);
    }
    if let Some(id) = &message.tool_call_id {
        value["tool_call_id"] = json!(id);
    }
    if let Some(name) = &message.tool_name {
        value["name"] = json!(name);
    }
    value
}

/// A message for a template that knows only user and assistant turns: calls written into the
/// assistant's text, results as a user turn.
fn text_message(message: &ChatMessage) -> Value {
    let text = text_without_media(&message.content);
    match message.role {
        Role::Tool => json!({"role": "user", "content": tools_text::response(&text)}),
        Role::Assistant => {
            let mut content = text;
            for call in &message.tool_calls {
                if !content.is_empty() {
                    content.push('\n');
                }
                content.push_str(&tools_text::call(&call.name, &call.arguments));
            }
            json!({"role": "assistant", "content": content})
        }
        role => json!({"role": role_name(role), "content": text}),
    }
}

/// Consecutive messages of one role joined (several tool results in a row become one user
/// turn), since strict templates refuse two user turns in a row.
fn merged(messages: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(messages.len());
    for message in messages {
        if let Some(last) = out.last_mut() {
            if last["role"] == message["role"] {
                let joined = format!(
                    "{}\n\n{}",
                    last["content"].as_str().unwrap_or_default(),
                    message["content"].as_str().unwrap_or_default()
                );
                last["content"] = Value::String(joined);
                continue;
            }
        }
        out.push(message);
    }
    out
}

#[cfg(test)]
#[path = "prompt_tests.rs"]
mod tests;
