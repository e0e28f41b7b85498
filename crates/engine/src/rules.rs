//! The user's rules from the settings as policy rules: each one checked on load, the first bad
//! one named (by its place, for the Settings editor); a runner whose rules cannot be read refuses
//! every tool (fail closed).

use std::path::PathBuf;

use hearth_policy::{Matcher, Rule};
use hearth_protocol::{PolicyRule, Settings};

use crate::EngineError;

/// Why a rule is refused: its place in the list (from 0) and the reason.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, thiserror::Error, ts_rs::TS)]
#[error("rule {} of [[rules]]: {message}", .index + 1)]
pub struct RuleError {
    pub index: usize,
    pub message: String,
}

/// `rules` as policy rules, or the first bad one with why: the check `config.toml` gets when it
/// is loaded and the Settings editor before it saves.
pub fn check_rules(rules: &[PolicyRule]) -> Result<Vec<Rule>, RuleError> {
    rules
        .iter()
        .enumerate()
        .map(|(index, rule)| policy_rule(rule).map_err(|message| RuleError { index, message }))
        .collect()
}

/// The settings' rules as policy rules, or a config error naming the first bad one.
pub fn user_rules(settings: &Settings) -> Result<Vec<Rule>, EngineError> {
    check_rules(&settings.rules).map_err(|error| EngineError::Config(error.to_string()))
}

/// The rules a tool runner enforces: the user's, or one refusing every tool when they cannot
/// be read (settings are checked when loaded, so this only guards against a bad in-memory copy).
pub fn enforced_rules(settings: &Settings) -> Vec<Rule> {
    user_rules(settings).unwrap_or_else(|error| {
        tracing::error!(%error, "user rules unreadable: every tool is refused");
        vec![Rule::deny(Matcher::ToolName("*".to_string()))]
    })
}

fn policy_rule(rule: &PolicyRule) -> Result<Rule, String> {
    let matcher = match (&rule.tool, &rule.capability) {
        (Some(tool), None) if !tool.trim().is_empty() => Matcher::ToolName(tool.trim().to_string()),
        (None, Some(capability)) => Matcher::Capability(*capability),
        _ => return Err("give exactly one of `tool` or `capability`".to_string()),
    };
    let mut policy = Rule {
        effect: rule.effect,
        matcher,
        workspace: None,
    };
    // Rules compare canonical workspace paths; a folder that does not exist yet is kept as written.
    policy.workspace = rule.workspace.as_ref().map(|folder| {
        let folder = PathBuf::from(folder);
        std::fs::canonicalize(&folder).unwrap_or(folder)
    });
    Ok(policy)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use hearth_policy::{Capability, Effect};

    use super::*;

    fn rule(effect: &str, tool: Option<&str>, capability: Option<&str>) -> PolicyRule {
        PolicyRule {
            effect: effect.parse().unwrap(),
            tool: tool.map(str::to_string),
            capability: capability.map(|c| c.parse().unwrap()),
            workspace: None,
        }
    }

    fn with(rules: Vec<PolicyRule>) -> Settings {
        Settings {
            rules,
            ..Settings::default()
        }
    }

    #[test]
    fn rules_by_tool_and_capability_become_policy_rules() {
        let settings = with(vec![
            rule("deny", Some("exec"), None),
            rule("allow", None, Some("fs.write")),
        ]);
        let rules = user_rules(&settings).unwrap();
        assert_eq!(rules[0].effect, Effect::Deny);
        assert_eq!(rules[0].matcher, Matcher::ToolName("exec".to_string()));
        assert_eq!(rules[1].effect, Effect::Allow);
        assert_eq!(rules[1].matcher, Matcher::Capability(Capability::FsWrite));
    }

    #[test]
    fn a_bad_rule_is_named_and_the_runner_then_refuses_everything() {
        let cases = [
            (rule("deny", Some("exec"), Some("fs.write")), "exactly one"),
            (rule("deny", None, None), "exactly one"),
            (rule("deny", Some("  "), None), "exactly one"),
        ];
        for (bad, why) in cases {
            let settings = with(vec![rule("allow", Some("calculator"), None), bad]);
            let error = user_rules(&settings).unwrap_err().to_string();
            assert!(error.starts_with("rule 2 of [[rules]]: "), "{error}");
            assert!(error.contains(why), "{error}");
            let enforced = enforced_rules(&settings);
            assert_eq!(enforced, [Rule::deny(Matcher::ToolName("*".to_string()))]);
            let checked = check_rules(&settings.rules).unwrap_err();
            assert_eq!(checked.index, 1, "the editor marks the second row");
            assert!(checked.message.contains(why), "{checked:?}");
            assert!(!checked.message.contains("rule 2"), "{checked:?}");
        }
        assert_eq!(check_rules(&[]).unwrap(), []);
    }
}
