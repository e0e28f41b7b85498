//! Tool names the model sees: `mcp__<server>__<tool>`, sanitized to `[A-Za-z0-9_-]`, at most 64
//! characters, with a short hash of the original names when it had to be cut or collides.

use sha2::{Digest, Sha256};
use std::collections::HashSet;

/// The longest tool name model APIs accept.
pub const MAX_TOOL_NAME: usize = 64;

const PREFIX: &str = "mcp__";

/// `text` with every character outside `[A-Za-z0-9_-]` replaced by `_`.
pub fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether `name` is usable as a server name as written (non-empty, `[A-Za-z0-9_-]`, no `__`
/// that would make tool names ambiguous).
pub fn valid_server_name(name: &str) -> bool {
    !name.is_empty() && sanitize(name) == name && !name.contains("__") && name.len() <= 32
}

/// The server's prefix for its tools: `mcp__<server>__`.
pub fn server_prefix(server: &str) -> String {
    format!("{PREFIX}{}__", sanitize(server))
}

/// Names the tools `(server, tool)` in order, each unique within `taken` (names are added to it).
pub fn qualified_name(server: &str, tool: &str, taken: &mut HashSet<String>) -> String {
    let plain = format!("{}{}", server_prefix(server), sanitize(tool));
    let name = if plain.len() <= MAX_TOOL_NAME && !taken.contains(&plain) {
        plain
    } else {
        hashed(&plain, server, tool)
    };
    taken.insert(name.clone());
    name
}

/// `plain` cut to leave room for `_` and 8 hex digits of a hash of the original names.
fn hashed(plain: &str, server: &str, tool: &str) -> String {
    let digest = Sha256::digest(format!("{server}\u{0}{tool}").as_bytes());
    let suffix: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let keep = MAX_TOOL_NAME - suffix.len() - 1;
    let head: String = plain.chars().take(keep).collect();
    format!("{head}_{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_prefixed_and_sanitized() {
        let mut taken = HashSet::new();
        assert_eq!(
            qualified_name("fs", "read file.v2", &mut taken),
            "mcp__fs__read_file_v2"
        );
    }

    #[test]
    fn long_names_are_cut_to_64_with_a_hash() {
        let mut taken = HashSet::new();
        let tool = "a".repeat(100);
        let name = qualified_name("server", &tool, &mut taken);
        assert_eq!(name.len(), MAX_TOOL_NAME);
        assert!(name.starts_with("mcp__server__aaa"), "{name}");
        let other = qualified_name("server", &format!("{tool}b"), &mut taken);
        assert_ne!(name, other);
    }

    #[test]
    fn a_collision_gets_a_hash_suffix() {
        let mut taken = HashSet::new();
        let first = qualified_name("s", "a.b", &mut taken);
        let second = qualified_name("s", "a_b", &mut taken);
        assert_eq!(first, "mcp__s__a_b");
        assert!(
            second.starts_with("mcp__s__a_b_") && second.len() == 20,
            "{second}"
        );
    }

    #[test]
    fn server_names_must_be_plain() {
        assert!(valid_server_name("github-2"));
        for bad in ["", "my server", "a__b", "ü"] {
            assert!(!valid_server_name(bad), "{bad}");
        }
    }
}
