//! The CeeCore format: `prompt.md` (the instructions), `manifest.json` (`name`, `version`,
//! `description`, `permissions` from `http`/`cron`/`notification`/`file`, `min_version`, and
//! any other field, kept) and an optional `tools.json` declaring the skill's own tools.

use crate::error::SkillError;
use crate::files::resolve_inside;
use crate::skill::{
    description, kind, optional_string, read_text, Format, Skill, SkillDialect, Source,
};
use hearth_policy::{Declaration, SkillGrant, SkillPermission};
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) const MANIFEST: &str = "manifest.json";
pub(crate) const PROMPT: &str = "prompt.md";
const TOOLS: &str = "tools.json";

/// A tool a CeeCore skill declares in `tools.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeclaredTool {
    pub name: String,
    pub description: String,
    /// JSON Schema of its arguments (an empty object schema when absent).
    pub parameters: Value,
    pub runner: ToolRunner,
}

/// What runs a declared tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolRunner {
    /// A script inside the skill folder, relative to it.
    Script(String),
    /// An HTTP endpoint called with the arguments as the JSON body.
    Endpoint { url: String, method: String },
}

pub(crate) fn load(dir: &Path, source: Source) -> Result<Skill, SkillError> {
    let text = read_text(dir, MANIFEST)?;
    let fields = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(fields)) => fields,
        Ok(other) => {
            return Err(SkillError::invalid(
                MANIFEST,
                None,
                format!("must be a JSON object, not {}", kind(&other)),
            ))
        }
        Err(e) => {
            return Err(SkillError::invalid(
                MANIFEST,
                None,
                format!("is not valid JSON: {e}"),
            ))
        }
    };
    let name = optional_string(&fields, MANIFEST, "name")?
        .ok_or_else(|| SkillError::invalid(MANIFEST, Some("name"), "is missing"))?;
    check_ceecore_name(&name).map_err(|m| SkillError::invalid(MANIFEST, Some("name"), m))?;
    let description = description(&fields, MANIFEST)?;
    let version = optional_string(&fields, MANIFEST, "version")?;
    optional_string(&fields, MANIFEST, "min_version")?;
    let permissions = permissions(&fields)?;
    if !dir.join(PROMPT).is_file() {
        return Err(SkillError::invalid(PROMPT, None, "is missing"));
    }
    read_text(dir, PROMPT)?;
    let tools = if dir.join(TOOLS).is_file() {
        declared_tools(dir)?
    } else {
        Vec::new()
    };
    Ok(Skill {
        grant: SkillGrant {
            skill: name.clone(),
            file: MANIFEST.into(),
            declaration: Declaration::Permissions(permissions),
            own_scripts: tools
                .iter()
                .filter(|t| matches!(t.runner, ToolRunner::Script(_)))
                .map(|t| t.name.clone())
                .collect(),
        },
        name,
        description,
        format: Format::Ceecore,
        source,
        dialect: SkillDialect::Ceecore,
        dir: dir.to_path_buf(),
        instructions: PROMPT,
        version,
        license: optional_string(&fields, MANIFEST, "license")?,
        tools,
        fields,
        enabled: true,
    })
}

/// CeeCore names: 1–64 characters of letters, digits, `-` and `_`.
fn check_ceecore_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > 64 {
        return Err("must be 1 to 64 characters long".into());
    }
    match name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        Some(bad) => Err(format!(
            "may hold only letters, digits, `-` and `_` (found {bad:?})"
        )),
        None => Ok(()),
    }
}

/// `permissions`: a list of `http`, `cron`, `notification`, `file` (absent: none).
fn permissions(fields: &Map<String, Value>) -> Result<Vec<SkillPermission>, SkillError> {
    let items = match fields.get("permissions") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(SkillError::invalid(
                MANIFEST,
                Some("permissions"),
                format!("must be a list, not {}", kind(other)),
            ))
        }
    };
    let mut out = Vec::new();
    for item in items {
        let permission = item
            .as_str()
            .and_then(SkillPermission::parse)
            .ok_or_else(|| {
                SkillError::invalid(
                    MANIFEST,
                    Some("permissions"),
                    format!("{item} is not a permission (http, cron, notification or file)"),
                )
            })?;
        if !out.contains(&permission) {
            out.push(permission);
        }
    }
    Ok(out)
}

/// `tools.json`: a list of tools, or `{"tools": [...]}`.
fn declared_tools(dir: &Path) -> Result<Vec<DeclaredTool>, SkillError> {
    let text = read_text(dir, TOOLS)?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| SkillError::invalid(TOOLS, None, format!("is not valid JSON: {e}")))?;
    let items = match value {
        Value::Array(items) => items,
        Value::Object(mut map) => match map.remove("tools") {
            Some(Value::Array(items)) => items,
            _ => {
                return Err(SkillError::invalid(
                    TOOLS,
                    Some("tools"),
                    "must be a list of tools",
                ))
            }
        },
        other => {
            return Err(SkillError::invalid(
                TOOLS,
                None,
                format!("must be a list of tools, not {}", kind(&other)),
            ))
        }
    };
    let mut tools: Vec<DeclaredTool> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let tool = declared_tool(dir, index, item)?;
        if tools.iter().any(|t| t.name == tool.name) {
            return Err(SkillError::invalid(
                TOOLS,
                Some(&format!("tools[{index}].name")),
                format!("`{}` is declared twice", tool.name),
            ));
        }
        tools.push(tool);
    }
    Ok(tools)
}

fn declared_tool(dir: &Path, index: usize, item: &Value) -> Result<DeclaredTool, SkillError> {
    let at = |field: &str| format!("tools[{index}].{field}");
    let Value::Object(fields) = item else {
        return Err(SkillError::invalid(
            TOOLS,
            Some(&format!("tools[{index}]")),
            format!("must be an object, not {}", kind(item)),
        ));
    };
    let text = |field: &str| -> Result<Option<String>, SkillError> {
        optional_string(fields, TOOLS, field)
            .map_err(|_| SkillError::invalid(TOOLS, Some(&at(field)), "must be a string"))
    };
    let name =
        text("name")?.ok_or_else(|| SkillError::invalid(TOOLS, Some(&at("name")), "is missing"))?;
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(SkillError::invalid(
            TOOLS,
            Some(&at("name")),
            "must be 1 to 64 letters, digits, `-` or `_`",
        ));
    }
    let description = text("description")?
        .ok_or_else(|| SkillError::invalid(TOOLS, Some(&at("description")), "is missing"))?;
    let parameters = match fields.get("parameters") {
        None => serde_json::json!({"type": "object", "properties": {}}),
        Some(schema @ Value::Object(_)) => schema.clone(),
        Some(other) => {
            return Err(SkillError::invalid(
                TOOLS,
                Some(&at("parameters")),
                format!("must be a JSON Schema object, not {}", kind(other)),
            ))
        }
    };
    let runner = match (text("script")?, fields.get("endpoint")) {
        (Some(script), None) => {
            resolve_inside(dir, &script)
                .map_err(|e| SkillError::invalid(TOOLS, Some(&at("script")), e.to_string()))?;
            ToolRunner::Script(script)
        }
        (None, Some(Value::Object(endpoint))) => {
            let url = optional_string(endpoint, TOOLS, "url")
                .ok()
                .flatten()
                .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
                .ok_or_else(|| {
                    SkillError::invalid(TOOLS, Some(&at("endpoint.url")), "must be an http(s) URL")
                })?;
            let method = optional_string(endpoint, TOOLS, "method")
                .ok()
                .flatten()
                .unwrap_or_else(|| "POST".into())
                .to_ascii_uppercase();
            ToolRunner::Endpoint { url, method }
        }
        _ => {
            return Err(SkillError::invalid(
                TOOLS,
                Some(&at("script")),
                "a tool needs exactly one of `script` (a file in the skill folder) or \
                 `endpoint` ({\"url\", \"method\"})",
            ))
        }
    };
    Ok(DeclaredTool {
        name,
        description,
        parameters,
        runner,
    })
}
