//! Tools for a template that does not render them: the Hermes-style instructions in the system
//! message (what Qwen, Hermes and SmolLM were tuned on), and calls and results as text.

use hearth_llm::{function_tool, ToolSpec};
use serde_json::{json, Value};

/// What starts a call in the model's text; the grammar takes over from here.
pub(crate) const CALL_TRIGGER: &str = "<tool_call>";
pub(crate) const CALL_CLOSER: &str = "</tool_call>";

/// `system` followed by the tools' signatures and how to call them.
pub(crate) fn with_tools(system: &str, tools: &[ToolSpec]) -> String {
    let signatures: Vec<String> = tools.iter().map(|t| function_tool(t).to_string()).collect();
    let mut text = system.trim_end().to_string();
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n",
    );
    text.push_str(&signatures.join("\n"));
    text.push_str(
        "\n</tools>\n\nFor each function call, return a json object with function name and \
         arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
         {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
    );
    text
}

/// A call as the model writes it.
pub(crate) fn call(name: &str, arguments: &str) -> String {
    let call = json!({"name": name, "arguments": arguments_value(arguments)});
    format!("{CALL_TRIGGER}\n{call}\n{CALL_CLOSER}")
}

/// A tool's result as the model reads it.
pub(crate) fn response(text: &str) -> String {
    format!("<tool_response>\n{text}\n</tool_response>")
}

/// Stored arguments (JSON text) as a JSON value; text that is not JSON stays a string.
pub(crate) fn arguments_value(arguments: &str) -> Value {
    serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_string()))
}
