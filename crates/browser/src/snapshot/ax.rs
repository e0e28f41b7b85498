//! The nodes of `Accessibility.getFullAXTree`, decoded with only the fields the outline reads
//! (names and ids borrowed from the reply's text; name sources and the rest skipped).

use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;

/// One accessibility node.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AxNode<'a> {
    #[serde(borrow)]
    pub node_id: Cow<'a, str>,
    #[serde(default)]
    pub ignored: bool,
    #[serde(default, borrow)]
    pub role: Option<AxText<'a>>,
    #[serde(default, borrow)]
    pub name: Option<AxText<'a>>,
    #[serde(default)]
    pub value: Option<AxValue>,
    #[serde(default, borrow)]
    pub properties: Vec<AxProperty<'a>>,
    #[serde(default, borrow)]
    pub parent_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub child_ids: Vec<Id<'a>>,
    #[serde(rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<i64>,
}

/// A node id in a list (borrowed when it needs no unescaping).
#[derive(Debug, Deserialize)]
pub struct Id<'a>(#[serde(borrow)] pub Cow<'a, str>);

/// A role or a name: a string value.
#[derive(Debug, Deserialize)]
pub struct AxText<'a> {
    #[serde(default, borrow)]
    pub value: Option<Cow<'a, str>>,
}

/// A value of any JSON type (a slider's number, a token, a boolean).
#[derive(Debug, Deserialize)]
pub struct AxValue {
    #[serde(default)]
    pub value: Option<Value>,
}

/// A named property (`checked`, `level`, `url` …).
#[derive(Debug, Deserialize)]
pub struct AxProperty<'a> {
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    pub value: AxValue,
}

impl AxNode<'_> {
    pub fn role(&self) -> &str {
        text(&self.role)
    }

    pub fn name(&self) -> &str {
        text(&self.name)
    }

    /// The node's value as text (numbers printed).
    pub fn value_text(&self) -> String {
        match self.value.as_ref().and_then(|v| v.value.as_ref()) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        }
    }
}

fn text<'s>(field: &'s Option<AxText<'_>>) -> &'s str {
    field
        .as_ref()
        .and_then(|t| t.value.as_deref())
        .unwrap_or("")
}
