//! The Agent Skills / Echo format: `SKILL.md` whose YAML front matter holds `name` (equal to
//! the folder's), `description`, and optionally `license`, `compatibility`, `metadata` (whose
//! `dialect` picks `picobot` or `ceecore` tool names) and `allowed-tools`.

use crate::error::SkillError;
use crate::name::check_name;
use crate::skill::{
    description, kind, optional_string, read_text, Format, Skill, SkillDialect, Source,
};
use hearth_policy::{Declaration, SkillGrant};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) const FILE: &str = "SKILL.md";

pub(crate) fn load(dir: &Path, folder: &str, source: Source) -> Result<Skill, SkillError> {
    let text = read_text(dir, FILE)?;
    let fields = front_matter(&text)?;
    let name = optional_string(&fields, FILE, "name")?
        .ok_or_else(|| SkillError::invalid(FILE, Some("name"), "is missing"))?;
    check_name(&name).map_err(|m| SkillError::invalid(FILE, Some("name"), m))?;
    if name != folder {
        return Err(SkillError::invalid(
            FILE,
            Some("name"),
            format!("`{name}` must equal the folder's name `{folder}`"),
        ));
    }
    let description = description(&fields, FILE)?;
    if let Some(compatibility) = optional_string(&fields, FILE, "compatibility")? {
        if compatibility.chars().count() > 500 {
            return Err(SkillError::invalid(
                FILE,
                Some("compatibility"),
                "must be at most 500 characters long",
            ));
        }
    }
    let dialect = dialect(&fields)?;
    let declaration = match allowed_tools(&fields)? {
        Some(tools) => Declaration::AllowedTools(tools),
        None => Declaration::None,
    };
    Ok(Skill {
        grant: SkillGrant {
            skill: name.clone(),
            file: FILE.into(),
            declaration,
            own_scripts: Vec::new(),
        },
        license: optional_string(&fields, FILE, "license")?,
        version: None,
        name,
        description,
        format: Format::AgentSkills,
        source,
        dialect,
        dir: dir.to_path_buf(),
        instructions: FILE,
        tools: Vec::new(),
        fields,
        enabled: true,
    })
}

/// The front matter between the opening `---` line and the next `---` line, as a mapping.
fn front_matter(text: &str) -> Result<Map<String, Value>, SkillError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(SkillError::invalid(
            FILE,
            None,
            "must start with YAML front matter (a `---` line)",
        ));
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push_str(line);
    }
    if !closed {
        return Err(SkillError::invalid(
            FILE,
            None,
            "the front matter is not closed by a `---` line",
        ));
    }
    let value: Value = serde_saphyr::from_str(&yaml).map_err(|e| {
        SkillError::invalid(
            FILE,
            None,
            format!("the front matter is not valid YAML: {e}"),
        )
    })?;
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(SkillError::invalid(
            FILE,
            None,
            format!("the front matter must be a mapping, not {}", kind(&other)),
        )),
    }
}

/// `metadata.dialect`: `echo` unless it says `picobot` or `ceecore`.
fn dialect(fields: &Map<String, Value>) -> Result<SkillDialect, SkillError> {
    let metadata = match fields.get("metadata") {
        None | Some(Value::Null) => return Ok(SkillDialect::Echo),
        Some(Value::Object(map)) => map,
        Some(other) => {
            return Err(SkillError::invalid(
                FILE,
                Some("metadata"),
                format!("must be a mapping, not {}", kind(other)),
            ))
        }
    };
    match metadata.get("dialect") {
        None => Ok(SkillDialect::Echo),
        Some(Value::String(d)) => match d.trim().to_ascii_lowercase().as_str() {
            "echo" | "hearth" => Ok(SkillDialect::Echo),
            "picobot" => Ok(SkillDialect::Picobot),
            "ceecore" => Ok(SkillDialect::Ceecore),
            other => Err(SkillError::invalid(
                FILE,
                Some("metadata.dialect"),
                format!("`{other}` is not a dialect (echo, picobot or ceecore)"),
            )),
        },
        Some(other) => Err(SkillError::invalid(
            FILE,
            Some("metadata.dialect"),
            format!("must be a string, not {}", kind(other)),
        )),
    }
}

/// `allowed-tools`: space-separated (commas allowed too), or a YAML list.
fn allowed_tools(fields: &Map<String, Value>) -> Result<Option<Vec<String>>, SkillError> {
    const FIELD: &str = "allowed-tools";
    let entries: Vec<String> = match fields.get(FIELD) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) => split_tools(s),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::String(s) => out.extend(split_tools(s)),
                    other => {
                        return Err(SkillError::invalid(
                            FILE,
                            Some(FIELD),
                            format!("entries must be strings, not {}", kind(other)),
                        ))
                    }
                }
            }
            out
        }
        Some(other) => {
            return Err(SkillError::invalid(
                FILE,
                Some(FIELD),
                format!(
                    "must be a space-separated string or a list, not {}",
                    kind(other)
                ),
            ))
        }
    };
    Ok(Some(entries))
}

/// Splits on spaces and commas outside parentheses (`Bash(git add:*)` stays one entry).
fn split_tools(text: &str) -> Vec<String> {
    let mut entries = Vec::new();
    let (mut current, mut depth) = (String::new(), 0usize);
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            c if depth == 0 && (c.is_whitespace() || c == ',') => {
                if !current.is_empty() {
                    entries.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        entries.push(current);
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::split_tools;

    #[test]
    fn allowed_tools_split_outside_parentheses() {
        assert_eq!(
            split_tools("Bash(git add:*) read_file, write_file"),
            ["Bash(git add:*)", "read_file", "write_file"]
        );
    }
}
