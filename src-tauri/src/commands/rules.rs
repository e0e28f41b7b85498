//! The Settings rules editor's command: the check `config.toml`'s `[[rules]]` get when loaded,
//! run before saving (the first bad rule's place and why). The capability tags a rule may name
//! reach the UI as the generated `CAPABILITIES` list.

use hearth_engine::{check_rules, RuleError};
use hearth_ipc_macros::command;
use hearth_protocol::PolicyRule;

#[command]
pub fn validate_rules(rules: Vec<PolicyRule>) -> Result<(), RuleError> {
    check_rules(&rules).map(|_| ())
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
        let bad = json!({"effect": "deny", "tool": "exec", "capability": "fs.write"});
        let error = validate_rules(rules(json!([good, bad]))).unwrap_err();
        let value = serde_json::to_value(&error).unwrap();
        assert_eq!(value["index"], 1, "{value}");
        assert_eq!(
            value["message"],
            "give exactly one of `tool` or `capability`"
        );
        // A misspelled tag never reaches the check: it is not a capability at all.
        let misspelled = json!([{"effect": "deny", "capability": "fs.wrte"}]);
        assert!(serde_json::from_value::<Vec<PolicyRule>>(misspelled).is_err());
    }
}
