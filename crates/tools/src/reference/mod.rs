//! The tool reference (`docs/tools.md`), generated from registries: for each canonical tool its
//! name in each dialect, description, parameters, capabilities, risk (per call, from the tool
//! itself) and profiles; and the comparison that tells whether the file on disk is current.

mod schema;

use std::collections::BTreeMap;

use hearth_policy::{canonical_tool, CanonicalTool, ToolProfile, CANONICAL_TOOLS};
use serde_json::{json, Value};

use crate::dialect::Dialect;
use crate::registry::{PreparedCall, Registry};
pub use schema::minimal_arguments;
use schema::parameter_table;

/// One dialect's version of a canonical tool; identical versions are shown once.
#[derive(PartialEq)]
struct Version {
    name: String,
    description: String,
    parameters: Value,
    risk: String,
}

/// The reference of every tool the `registries` (one per dialect) hold, as Markdown.
pub async fn reference(registries: &[Registry]) -> String {
    let mut tools: BTreeMap<&'static str, Vec<(Version, Vec<Dialect>)>> = BTreeMap::new();
    for registry in registries {
        for spec in registry.specs(ToolProfile::Full) {
            let Some(entry) = registry
                .facts(&spec.name)
                .and_then(|facts| canonical_tool(&facts.name))
            else {
                continue;
            };
            let version = Version {
                risk: risk_per_call(registry, &spec.name, &spec.parameters, entry).await,
                name: spec.name,
                description: spec.description,
                parameters: spec.parameters,
            };
            let versions = tools.entry(entry.name).or_default();
            match versions.iter_mut().find(|(known, _)| *known == version) {
                Some((_, dialects)) => dialects.push(registry.dialect()),
                None => versions.push((version, vec![registry.dialect()])),
            }
        }
    }
    let mut out = summary(&tools);
    for (name, versions) in &tools {
        if let Some(entry) = canonical_tool(name) {
            out.push_str(&section(entry, versions));
        }
    }
    out.push_str(&not_yet_available(&tools));
    out
}

/// Where `on_disk` first differs from `generated`, or `None` when they are the same.
pub fn reference_difference(on_disk: &str, generated: &str) -> Option<String> {
    if on_disk == generated {
        return None;
    }
    let mut disk = on_disk.lines();
    let mut fresh = generated.lines();
    let mut line = 0;
    loop {
        line += 1;
        match (disk.next(), fresh.next()) {
            (None, None) => {
                return Some("they differ only in line endings or a final newline".to_string())
            }
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                return Some(format!(
                    "line {line} differs:\n  on disk:   {}\n  generated: {}",
                    a.unwrap_or("(end of file)"),
                    b.unwrap_or("(end of file)")
                ))
            }
        }
    }
}

/// The table of every tool: its name per dialect, smallest profile and risk.
fn summary(tools: &BTreeMap<&'static str, Vec<(Version, Vec<Dialect>)>>) -> String {
    let mut out = String::from("| tool |");
    for dialect in Dialect::ALL {
        out.push_str(&format!(" {dialect} |"));
    }
    out.push_str(" smallest profile | risk |\n|---|---|---|---|---|---|---|\n");
    for (name, versions) in tools {
        let Some(entry) = canonical_tool(name) else {
            continue;
        };
        out.push_str(&format!("| [`{name}`](#{name}) |"));
        for dialect in Dialect::ALL {
            let names: Vec<String> = versions
                .iter()
                .filter(|(_, dialects)| dialects.contains(&dialect))
                .map(|(version, _)| format!("`{}`", version.name))
                .collect();
            let shown = if names.is_empty() {
                "—".to_string()
            } else {
                names.join(", ")
            };
            out.push_str(&format!(" {shown} |"));
        }
        out.push_str(&format!(" {} | {} |\n", entry.profile, tool_risk(entry)));
    }
    out
}

/// One canonical tool: its facts, then each distinct dialect version.
fn section(entry: &CanonicalTool, versions: &[(Version, Vec<Dialect>)]) -> String {
    let capabilities: Vec<String> = entry
        .capabilities
        .iter()
        .map(|c| format!("`{c}`"))
        .collect();
    let profiles: Vec<&str> = ToolProfile::ALL
        .into_iter()
        .filter(|p| *p >= entry.profile)
        .map(ToolProfile::as_str)
        .collect();
    let mut out = format!(
        "\n## {name}\n\n- **Capabilities:** {caps}\n- **Risk:** {risk}\n- **Profiles:** {profiles}\n",
        name = entry.name,
        caps = if capabilities.is_empty() {
            "none".to_string()
        } else {
            capabilities.join(", ")
        },
        risk = tool_risk(entry),
        profiles = profiles.join(", "),
    );
    for (version, dialects) in versions {
        let dialects: Vec<&str> = dialects.iter().map(|d| d.as_str()).collect();
        out.push_str(&format!(
            "\n### {}: `{}`\n\n{}\n\n{}\n{}",
            dialects.join(", "),
            version.name,
            version.description,
            version.risk,
            parameter_table(&version.parameters),
        ));
    }
    out
}

/// The catalogue's risk of a tool.
fn tool_risk(entry: &CanonicalTool) -> &'static str {
    match (entry.high_risk, entry.mutates) {
        (true, _) => "high-risk",
        (false, true) => "changes things",
        (false, false) => "read-only",
    }
}

/// What each call of the tool `name` does, as the tool itself says: per `action` when its
/// schema has one, else for the smallest call its schema accepts (or the tool's default when
/// that call is not valid).
async fn risk_per_call(
    registry: &Registry,
    name: &str,
    parameters: &Value,
    entry: &CanonicalTool,
) -> String {
    let default = label(entry.high_risk, entry.mutates, false);
    let judged = |args: Value| async move {
        registry
            .prepare(name, &args.to_string())
            .await
            .map_or(default, |call| call_label(&call))
    };
    let actions: Vec<&str> = parameters["properties"]["action"]["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if actions.is_empty() {
        return format!(
            "Every call: {}.\n",
            judged(minimal_arguments(parameters)).await
        );
    }
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for action in actions {
        let mut args = minimal_arguments(parameters);
        args["action"] = json!(action);
        let label = judged(args).await;
        match groups.iter_mut().find(|(known, _)| *known == label) {
            Some((_, names)) => names.push(format!("`{action}`")),
            None => groups.push((label, vec![format!("`{action}`")])),
        }
    }
    match groups.as_slice() {
        [(label, _)] => format!("Every call: {label}.\n"),
        _ => groups
            .iter()
            .map(|(label, names)| format!("- {}: {label}.\n", names.join(", ")))
            .collect(),
    }
}

fn call_label(call: &PreparedCall) -> &'static str {
    label(call.facts.high_risk, call.facts.mutates, call.always_ask)
}

fn label(high_risk: bool, mutates: bool, always_ask: bool) -> &'static str {
    match (always_ask, high_risk, mutates) {
        (true, _, _) => {
            "asked every time, showing what it grants (never remembered for the session, nor \
             let through by a rule or a job authorization)"
        }
        (false, true, _) => "high-risk: asks first",
        (false, false, true) => "changes something; runs without asking",
        (false, false, false) => "read-only: never asks, runs alongside other read-only calls",
    }
}

/// The catalogued tools no registry offers yet, with their smallest profile.
fn not_yet_available(tools: &BTreeMap<&'static str, Vec<(Version, Vec<Dialect>)>>) -> String {
    let mut missing: Vec<&CanonicalTool> = CANONICAL_TOOLS
        .iter()
        .filter(|entry| !tools.contains_key(entry.name))
        .collect();
    if missing.is_empty() {
        return String::new();
    }
    missing.sort_by_key(|entry| entry.name);
    let mut out = String::from(
        "\n## Catalogued, not available yet\n\nPolicy already knows these tools (their profile \
         and risk are fixed); no dialect offers them yet.\n\n| tool | smallest profile | risk |\n\
         |---|---|---|\n",
    );
    for entry in missing {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            entry.name,
            entry.profile,
            tool_risk(entry)
        ));
    }
    out
}
