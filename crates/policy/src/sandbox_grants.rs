//! Rules widening the sandbox of some commands or skills (`[[security.grants]]`): what they add to
//! one program's sandbox, and which of them are malformed.

use hearth_protocol::SandboxGrant;
use std::path::{Path, PathBuf};

/// What the grants give one program beyond the user's sandbox.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Granted {
    pub network: bool,
    pub writable: Vec<PathBuf>,
}

impl Granted {
    /// Whether the grants add nothing.
    pub fn is_empty(&self) -> bool {
        !self.network && self.writable.is_empty()
    }
}

/// Text that chains or nests shell commands: a command holding any of it matches no grant
/// (`npm *` must not grant `npm i; curl …` the network).
const SHELL_OPERATORS: &[&str] = &[";", "&", "|", "`", "$(", "\n", "\r", "<(", ">("];

/// What the grants matching `command` (a call's shell command) or `skill` (the skill whose
/// script a call runs) give it, together.
pub fn granted(grants: &[SandboxGrant], command: Option<&str>, skill: Option<&str>) -> Granted {
    grants
        .iter()
        .filter(|grant| {
            let by_command = match (&grant.command, command) {
                (Some(pattern), Some(command)) => command_matches(pattern, command),
                _ => false,
            };
            let by_skill = matches!((&grant.skill, skill), (Some(a), Some(b)) if a == b);
            by_command || by_skill
        })
        .fold(Granted::default(), |mut granted, grant| {
            granted.network |= grant.network;
            for root in &grant.writable_roots {
                let root = PathBuf::from(root);
                if !granted.writable.contains(&root) {
                    granted.writable.push(root);
                }
            }
            granted
        })
}

/// Whether `command` (surrounding blanks ignored) is `pattern`, where each `*` in the pattern
/// stands for any text; a command chaining others (`;`, `&&`, `|`, `$(…)`…) never is.
pub fn command_matches(pattern: &str, command: &str) -> bool {
    let command = command.trim();
    if SHELL_OPERATORS.iter().any(|op| command.contains(op)) {
        return false;
    }
    wildcard(pattern.trim().as_bytes(), command.as_bytes())
}

/// `*`-only glob matching, linear with backtracking to the last star.
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|b| *b == b'*')
}

/// The first malformed grant, as `grants[i]: why` (for start-up, which refuses it).
pub fn grant_problem(grants: &[SandboxGrant]) -> Option<String> {
    grants.iter().enumerate().find_map(|(index, grant)| {
        problem(grant).map(|why| format!("security.grants[{index}]: {why}"))
    })
}

fn problem(grant: &SandboxGrant) -> Option<String> {
    match (&grant.command, &grant.skill) {
        (Some(_), Some(_)) => {
            return Some("name either `command` or `skill`, not both".to_string());
        }
        (None, None) => {
            return Some(
                "name the `command` pattern (e.g. \"npm *\") or the `skill` it applies to"
                    .to_string(),
            );
        }
        (Some(pattern), None) if pattern.trim().is_empty() => {
            return Some("`command` is empty".to_string());
        }
        (Some(pattern), None) if SHELL_OPERATORS.iter().any(|op| pattern.contains(op)) => {
            return Some(format!(
                "`command` = {pattern:?} chains commands, which no grant matches: name one command"
            ));
        }
        (None, Some(skill)) if skill.trim().is_empty() => {
            return Some("`skill` is empty".to_string());
        }
        _ => {}
    }
    if let Some(root) = grant
        .writable_roots
        .iter()
        .find(|root| !Path::new(root).is_absolute())
    {
        return Some(format!("writable_roots: {root:?} is not an absolute path"));
    }
    if !grant.network && grant.writable_roots.is_empty() {
        return Some("grants nothing: add `network = true` or `writable_roots`".to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(pattern: &str, network: bool, roots: &[&str]) -> SandboxGrant {
        SandboxGrant {
            command: Some(pattern.to_string()),
            network,
            writable_roots: roots.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_pattern_matches_whole_commands_with_stars_for_any_text() {
        assert!(command_matches("npm *", "npm install"));
        assert!(command_matches("npm *", "  npm ci --silent "));
        assert!(!command_matches("npm *", "npm"));
        assert!(!command_matches("npm *", "pnpm install"));
        assert!(command_matches(
            "cargo * --offline",
            "cargo build --offline"
        ));
        assert!(!command_matches("cargo * --offline", "cargo build"));
        assert!(command_matches("git fetch", "git fetch"));
        assert!(command_matches("*", "anything at all"));
        assert!(command_matches("a*b*c", "axxbyyc"));
        assert!(!command_matches("a*b*c", "axxbyy"));
    }

    #[test]
    fn a_command_chaining_others_matches_no_grant() {
        for chained in [
            "npm i; curl evil.example",
            "npm i && curl evil.example",
            "npm i | sh",
            "npm i `curl x`",
            "npm i $(curl x)",
            "npm i\ncurl x",
        ] {
            assert!(!command_matches("npm *", chained), "{chained}");
        }
    }

    #[test]
    fn matching_grants_add_up_and_others_give_nothing() {
        let grants = [
            command("npm *", true, &[]),
            command("npm publish*", false, &["/home/u/.npm"]),
            SandboxGrant {
                skill: Some("fetcher".into()),
                network: true,
                ..Default::default()
            },
        ];
        let publish = granted(&grants, Some("npm publish --dry-run"), None);
        assert!(publish.network);
        assert_eq!(publish.writable, [PathBuf::from("/home/u/.npm")]);
        assert!(granted(&grants, Some("curl example.com"), None).is_empty());
        assert!(granted(&grants, None, Some("fetcher")).network);
        assert!(granted(&grants, None, Some("other")).is_empty());
        assert!(granted(&grants, None, None).is_empty());
    }

    #[test]
    fn malformed_grants_are_named() {
        let both = SandboxGrant {
            command: Some("npm *".into()),
            skill: Some("x".into()),
            network: true,
            ..Default::default()
        };
        let cases = [
            (both, "not both"),
            (
                SandboxGrant {
                    network: true,
                    ..Default::default()
                },
                "name the `command`",
            ),
            (command("", true, &[]), "empty"),
            (command("npm i && *", true, &[]), "chains commands"),
            (
                command("npm *", false, &["relative/dir"]),
                "not an absolute path",
            ),
            (command("npm *", false, &[]), "grants nothing"),
        ];
        for (grant, why) in cases {
            let problem = grant_problem(&[command("ok *", true, &[]), grant]).unwrap();
            assert!(problem.starts_with("security.grants[1]: "), "{problem}");
            assert!(problem.contains(why), "{problem}");
        }
        assert_eq!(grant_problem(&[command("npm *", true, &["/tmp/x"])]), None);
    }
}
