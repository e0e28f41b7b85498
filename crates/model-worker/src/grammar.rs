//! The grammar that holds a tool call to the offered tools: once the model writes the trigger
//! (`<tool_call>`), what follows must be `{"name": …, "arguments": …}` for one tool, its
//! arguments valid for that tool's JSON Schema, then the closer.

use llama_cpp_2::json_schema_to_grammar;
use serde_json::{json, Value};

use hearth_local::wire::ToolGrammar;

/// A GBNF grammar (root rule `root`) for one call of one of `spec.tools`, and the pattern that
/// starts it (llama.cpp feeds the grammar from the pattern's first group). A schema llama.cpp
/// cannot turn into a grammar is loosened to "any object" for that tool's arguments.
pub(super) fn tool_call_grammar(spec: &ToolGrammar) -> Result<(String, String), String> {
    let calls = |loose: bool| -> Value {
        let choices: Vec<Value> = spec
            .tools
            .iter()
            .map(|(name, schema)| {
                let arguments = if loose {
                    json!({"type": "object"})
                } else {
                    schema.clone()
                };
                json!({
                    "type": "object",
                    "properties": {"name": {"const": name}, "arguments": arguments},
                    "required": ["name", "arguments"],
                    "additionalProperties": false,
                })
            })
            .collect();
        json!({"oneOf": choices})
    };
    let call = json_schema_to_grammar(&calls(false).to_string())
        .or_else(|_| json_schema_to_grammar(&calls(true).to_string()))
        .map_err(|e| e.to_string())?;
    Ok((wrap(&call, spec), trigger_pattern(&spec.trigger)))
}

/// The call grammar's root renamed `call`, inside the trigger and closer.
fn wrap(call_grammar: &str, spec: &ToolGrammar) -> String {
    let renamed: Vec<String> = call_grammar
        .lines()
        .map(|line| match line.strip_prefix("root ::=") {
            Some(rest) => format!("tool-call-json ::={rest}"),
            None => line.to_string(),
        })
        .collect();
    format!(
        "root ::= {} [ \\n]* tool-call-json [ \\n]* {}\n{}\n",
        literal(&spec.trigger),
        literal(&spec.closer),
        renamed.join("\n")
    )
}

/// A GBNF string literal (GBNF escapes like JSON).
fn literal(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// Everything up to the trigger, then the trigger and the rest as the first group.
fn trigger_pattern(trigger: &str) -> String {
    let escaped: String = trigger
        .chars()
        .map(|c| {
            if "\\^$.|?*+()[]{}/".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("[\\s\\S]*?({escaped}[\\s\\S]*)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_wraps_the_renamed_call_rule() {
        let spec = ToolGrammar {
            trigger: "<tool_call>".into(),
            closer: "</tool_call>".into(),
            tools: Vec::new(),
            required: false,
        };
        let grammar = wrap("root ::= \"{\" space \"}\"\nspace ::= \" \"?", &spec);
        assert!(grammar.starts_with(
            "root ::= \"<tool_call>\" [ \\n]* tool-call-json [ \\n]* \"</tool_call>\"\n"
        ));
        assert!(grammar.contains("tool-call-json ::= \"{\" space \"}\""));
        assert_eq!(grammar.matches("root ::=").count(), 1);
        assert_eq!(
            trigger_pattern("<tool_call>"),
            "[\\s\\S]*?(<tool_call>[\\s\\S]*)"
        );
    }
}
