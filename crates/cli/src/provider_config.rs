//! Removing a provider from `config.toml` text with toml_edit: the `[[providers]]` entry goes
//! (or the inline table in `providers = [...]`), the default moves to the first remaining
//! provider as the Settings page does, and every other line stays as the person wrote it.

use anyhow::anyhow;
use toml_edit::{DocumentMut, Item, Value};

fn id_of(item: Option<&Item>) -> Option<&str> {
    item.and_then(Item::as_str)
}

/// The `[[providers]]` (or inline) entries' `(id, default_model)` in order.
fn entries(doc: &DocumentMut) -> Vec<(String, Option<String>)> {
    let pair = |id: Option<&str>, model: Option<&str>| {
        id.map(|id| (id.to_string(), model.map(str::to_string)))
    };
    match doc.get("providers") {
        Some(Item::ArrayOfTables(tables)) => tables
            .iter()
            .filter_map(|t| pair(id_of(t.get("id")), id_of(t.get("default_model"))))
            .collect(),
        Some(Item::Value(Value::Array(values))) => values
            .iter()
            .filter_map(Value::as_inline_table)
            .filter_map(|t| {
                pair(
                    t.get("id").and_then(Value::as_str),
                    t.get("default_model").and_then(Value::as_str),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `text` without the provider `id`; fails when it names no such provider.
pub fn without_provider(text: &str, id: &str) -> anyhow::Result<String> {
    let mut doc: DocumentMut = text.parse()?;
    let before = entries(&doc).len();
    match doc.get_mut("providers") {
        Some(Item::ArrayOfTables(tables)) => tables.retain(|t| id_of(t.get("id")) != Some(id)),
        Some(Item::Value(Value::Array(values))) => values.retain(|v| {
            let entry_id = v.as_inline_table().and_then(|t| t.get("id"));
            entry_id.and_then(Value::as_str) != Some(id)
        }),
        _ => {}
    }
    let remaining = entries(&doc);
    if remaining.len() == before {
        return Err(anyhow!("no provider `{id}` in config.toml"));
    }
    if id_of(doc.get("default_provider")) == Some(id) {
        match remaining.into_iter().next() {
            Some((next, model)) => {
                doc["default_provider"] = toml_edit::value(next);
                match model {
                    Some(model) => doc["default_model"] = toml_edit::value(model),
                    None => {
                        doc.remove("default_model");
                    }
                }
            }
            None => {
                doc.remove("default_provider");
                doc.remove("default_model");
            }
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRITTEN: &str = r#"# my settings
language = "en"   # English for now
default_provider = "lm"
default_model = "mock"

# the local one
[[providers]]
id = "lm"
name = "LM Studio"
kind = "openai"
base_url = "http://127.0.0.1:1234/v1"
default_model = "mock"

[[providers]]
id = "router"
name = "Router"
kind = "openai"
default_model = "gpt-4o"

[search]
backend = "searxng" # self-hosted
"#;

    #[test]
    fn removes_one_entry_and_moves_the_default_keeping_the_rest() {
        let edited = without_provider(WRITTEN, "lm").unwrap();
        assert!(!edited.contains("LM Studio"), "{edited}");
        let head = "# my settings\nlanguage = \"en\"   # English for now\ndefault_provider = \"router\"\ndefault_model = \"gpt-4o\"\n";
        assert!(edited.starts_with(head), "{edited}");
        assert!(
            edited.contains("[search]\nbackend = \"searxng\" # self-hosted\n"),
            "{edited}"
        );
        assert!(edited.contains("id = \"router\""));
    }

    #[test]
    fn removing_a_provider_that_is_not_the_default_leaves_the_default() {
        let edited = without_provider(WRITTEN, "router").unwrap();
        assert!(edited.contains("default_provider = \"lm\"\ndefault_model = \"mock\"\n"));
        assert!(!edited.contains("id = \"router\""), "{edited}");
    }

    #[test]
    fn removing_the_last_provider_clears_the_default() {
        let text = "default_provider = \"a\"\ndefault_model = \"m\"\n\n[[providers]]\nid = \"a\"\nname = \"A\"\nkind = \"ollama\"\n";
        let edited = without_provider(text, "a").unwrap();
        assert!(!edited.contains("default_provider"), "{edited}");
        assert!(!edited.contains("default_model"), "{edited}");
        assert!(!edited.contains("[[providers]]"), "{edited}");
    }

    #[test]
    fn inline_arrays_are_edited_too() {
        let text = "providers = [{ id = \"a\", name = \"A\", kind = \"ollama\" }, { id = \"b\", name = \"B\", kind = \"ollama\" }]\n";
        let edited = without_provider(text, "a").unwrap();
        assert!(!edited.contains("\"a\""), "{edited}");
        assert!(edited.contains("id = \"b\""), "{edited}");
    }

    #[test]
    fn an_unknown_id_is_refused() {
        let error = without_provider(WRITTEN, "nope").unwrap_err().to_string();
        assert_eq!(error, "no provider `nope` in config.toml");
    }
}
