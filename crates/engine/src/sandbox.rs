//! The user's `[security]` settings as the sandbox's own settings, and what the sandbox can do
//! on this system (for Settings → Security).

use hearth_protocol::{SandboxMode, SandboxStatus, SecuritySettings};
use std::path::PathBuf;

/// The sandbox settings of `security`.
pub fn sandbox_settings(security: &SecuritySettings) -> hearth_sandbox::Settings {
    hearth_sandbox::Settings {
        mode: match security.sandbox {
            SandboxMode::WorkspaceWrite => hearth_sandbox::Mode::WorkspaceWrite,
            SandboxMode::ReadOnly => hearth_sandbox::Mode::ReadOnly,
            SandboxMode::Off => hearth_sandbox::Mode::Off,
        },
        network: security.network,
        writable: security.writable_roots.iter().map(PathBuf::from).collect(),
        denied: security.denied_paths.iter().map(PathBuf::from).collect(),
    }
}

/// What a command with the network off gets on this system (a program is started to find out).
pub fn sandbox_status() -> SandboxStatus {
    let isolation = hearth_sandbox::probe();
    SandboxStatus {
        isolation: isolation.kind.to_string(),
        reason: isolation.reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_carry_over() {
        let security = SecuritySettings {
            sandbox: SandboxMode::ReadOnly,
            network: true,
            writable_roots: vec!["/srv/data".into()],
            denied_paths: vec!["/srv/data/keys".into()],
            ..Default::default()
        };
        let settings = sandbox_settings(&security);
        assert_eq!(settings.mode, hearth_sandbox::Mode::ReadOnly);
        assert!(settings.network);
        assert_eq!(settings.writable, [PathBuf::from("/srv/data")]);
        assert_eq!(settings.denied, [PathBuf::from("/srv/data/keys")]);
    }

    #[test]
    fn a_malformed_grant_stops_start_up_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let load = |text: &str| {
            std::fs::write(&path, text).unwrap();
            crate::load_settings(&path)
        };
        let relative =
            load("[[security.grants]]\ncommand = \"npm *\"\nwritable_roots = [\"cache\"]\n")
                .unwrap_err()
                .to_string();
        assert!(
            relative
                .contains("security.grants[0]: writable_roots: \"cache\" is not an absolute path"),
            "{relative}"
        );
        let nothing = load("[[security.grants]]\nskill = \"fetcher\"\n")
            .unwrap_err()
            .to_string();
        assert!(nothing.contains("grants nothing"), "{nothing}");
        assert!(load("[[security.grants]]\ncommand = \"npm *\"\nnetwrk = true\n").is_err());
        let settings = load(
            "[security]\nnetwork = false\n\n[[security.grants]]\ncommand = \"npm *\"\nnetwork = true\n",
        )
        .unwrap();
        assert_eq!(
            settings.security.grants[0].command.as_deref(),
            Some("npm *")
        );
    }

    #[test]
    fn config_toml_spells_the_modes_as_the_issue_does() {
        let parsed: SecuritySettings =
            toml::from_str("sandbox = \"workspace-write\"\nnetwork = false").unwrap();
        assert_eq!(parsed.sandbox, SandboxMode::WorkspaceWrite);
        assert!(toml::from_str::<SecuritySettings>("sandbox = \"none\"").is_err());
        assert!(toml::from_str::<SecuritySettings>("sandbox = \"off\"\nnet = true").is_err());
    }
}
