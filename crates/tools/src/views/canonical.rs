//! The canonical tool a name of a dialect stands for, without the registry the call ran in (a
//! stored row's): the built-in tools' dialect names, read once from this crate's own registries,
//! and every catalogue name as it is.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use hearth_policy::canonical_tool;

use crate::{builtin_registry_on, Background, Dialect};

/// Each dialect's built-in tool names, each with its canonical name.
static BUILTIN_NAMES: LazyLock<Vec<(Dialect, BTreeMap<String, String>)>> = LazyLock::new(|| {
    let background = Background::new();
    Dialect::ALL
        .into_iter()
        .map(|dialect| {
            let registry = builtin_registry_on(dialect, &background);
            let names = registry
                .specs(hearth_policy::ToolProfile::Full)
                .into_iter()
                .filter_map(|spec| Some((registry.facts(&spec.name)?.name, spec.name)))
                .map(|(canonical, name)| (name, canonical))
                .collect();
            (dialect, names)
        })
        .collect()
});

/// The canonical name of the tool `name` in `dialect`: a built-in tool's under its dialect
/// name, a catalogue name as it is; `None` for others (an MCP server's tools).
pub fn canonical_name(dialect: Dialect, name: &str) -> Option<String> {
    let builtin = BUILTIN_NAMES
        .iter()
        .find(|(d, _)| *d == dialect)
        .and_then(|(_, names)| names.get(name).cloned());
    builtin.or_else(|| canonical_tool(name).map(|tool| tool.name.to_string()))
}
