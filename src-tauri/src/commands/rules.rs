//! The Settings rules editor's commands: the check `config.toml`'s `[[rules]]` get when loaded,
//! run before saving (the first bad rule's place and why), and the capability tags a rule may
//! name.

use hearth_engine::{check_rules, RuleError};
use hearth_policy::Capability;
use hearth_protocol::PolicyRule;

#[tauri::command]
pub fn validate_rules(rules: Vec<PolicyRule>) -> Result<(), RuleError> {
    check_rules(&rules).map(|_| ())
}

/// Every capability tag, in the policy's order.
#[tauri::command]
pub fn known_capabilities() -> Vec<&'static str> {
    Capability::ALL.iter().map(|c| c.as_str()).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;

    fn rules(value: serde_json::Value) -> Vec<PolicyRule> {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_refused_rule_crosses_ipc_as_its_place_and_reason() {
        let good = json!({"effect": "allow", "tool": "exec", "workspace": "/tmp"});
        assert!(validate_rules(rules(json!([good.clone()]))).is_ok());
        let bad = json!({"effect": "deny", "capability": "fs.wrte"});
        let error = validate_rules(rules(json!([good, bad]))).unwrap_err();
        let value = serde_json::to_value(&error).unwrap();
        assert_eq!(value["index"], 1, "{value}");
        let message = value["message"].as_str().unwrap();
        assert!(
            message.contains("unknown capability `fs.wrte`"),
            "{message}"
        );
        assert!(
            message.contains("fs.write"),
            "names the allowed ones: {message}"
        );
    }

    #[test]
    fn the_known_capabilities_are_the_policy_s_own() {
        let known = known_capabilities();
        assert_eq!(known.len(), Capability::ALL.len());
        for tag in &known {
            assert!(tag.parse::<Capability>().is_ok(), "{tag}");
        }
        assert!(known.contains(&"network.outbound"));
    }
}
