//! The macOS Seatbelt profile (SBPL, the language of `sandbox-exec -p`) of a [`Sandbox`]: built on
//! every system so that its text is tested everywhere, applied only on macOS.
//!
//! The profile starts from `(allow default)` and takes away what the policy forbids: writes
//! anywhere but the writable roots (and the terminal devices), any access under the denied paths
//! (a writable root inside one is given back, as Landlock's walk does on Linux), and internet
//! sockets when the network is off. Seatbelt decides by the last rule that matches, so the order
//! of the sections below is the policy.

use crate::{Mode, Sandbox};
use std::ffi::OsString;
use std::path::Path;

/// The program that applies a profile and then runs the command (Apple's, so not looked up on
/// the `PATH`, which a command could change).
pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// Devices every program writes to: the null device, terminals and the pseudo-terminal master.
const DEVICES: &[&str] = &[
    "(literal \"/dev/null\")",
    "(literal \"/dev/zero\")",
    "(literal \"/dev/tty\")",
    "(literal \"/dev/ptmx\")",
    "(literal \"/dev/dtracehelper\")",
    "(regex #\"^/dev/ttys[0-9]+$\")",
    "(regex #\"^/dev/fd/[0-9]+$\")",
];

/// The SBPL text of `sandbox`: writes only in its writable roots (none in read-only mode),
/// nothing under its denied paths, no internet sockets with the network off.
pub fn seatbelt_profile(sandbox: &Sandbox) -> String {
    let mut profile = String::from(
        "(version 1)\n\
         ; Hearth's sandbox: what the program may not do is taken away from the default.\n\
         (allow default)\n",
    );
    profile
        .push_str("; Writes only in the writable roots.\n(deny file-write*)\n(allow file-write*");
    for device in DEVICES {
        profile.push_str("\n  ");
        profile.push_str(device);
    }
    let roots: &[std::path::PathBuf] = if sandbox.mode == Mode::ReadOnly {
        &[]
    } else {
        &sandbox.writable
    };
    for root in roots {
        profile.push_str("\n  ");
        profile.push_str(&subpath(root));
    }
    profile.push_str(")\n");
    if !sandbox.denied.is_empty() {
        profile.push_str(
            "; Secrets and Hearth's data: neither read nor written.\n(deny file-read* file-write*",
        );
        for denied in &sandbox.denied {
            profile.push_str("\n  ");
            profile.push_str(&subpath(denied));
        }
        profile.push_str(")\n");
        let inside: Vec<_> = roots
            .iter()
            .filter(|root| sandbox.denied.iter().any(|denied| root.starts_with(denied)))
            .collect();
        if !inside.is_empty() {
            profile.push_str(
                "; Writable roots inside a denied path stay usable.\n(allow file-read* file-write*",
            );
            for root in inside {
                profile.push_str("\n  ");
                profile.push_str(&subpath(root));
            }
            profile.push_str(")\n");
        }
    }
    if !sandbox.network {
        profile.push_str(
            "; The network is off: no internet sockets (local Unix sockets stay usable).\n\
             (deny network-outbound (remote ip \"*:*\"))\n\
             (deny network-inbound (local ip \"*:*\"))\n\
             (deny network-bind (local ip \"*:*\"))\n",
        );
    }
    profile
}

/// The arguments of [`SANDBOX_EXEC`] that run `program` with `args` under `profile`.
pub fn sandbox_exec_args(
    profile: &str,
    program: impl Into<OsString>,
    args: impl IntoIterator<Item = OsString>,
) -> Vec<OsString> {
    let mut all: Vec<OsString> = vec!["-p".into(), profile.into(), "--".into(), program.into()];
    all.extend(args);
    all
}

/// `(subpath "…")` for `path`, quoted as an SBPL string.
fn subpath(path: &Path) -> String {
    format!("(subpath {})", quoted(&path.to_string_lossy()))
}

fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    fn sandbox(mode: Mode, network: bool) -> Sandbox {
        let settings = Settings {
            mode,
            network,
            writable: vec!["/Users/me/extra".into()],
            denied: vec!["/Users/me/vault".into()],
        };
        Sandbox::new(
            &settings,
            Some(Path::new("/Users/me")),
            Some(Path::new("/Users/me/Library/Application Support/Hearth")),
        )
        .writable("/Users/me/work")
        .writable("/Users/me/Library/Application Support/Hearth/skills/pdf")
    }

    #[test]
    fn writes_only_in_the_roots_and_secrets_unreadable() {
        let profile = seatbelt_profile(&sandbox(Mode::WorkspaceWrite, false));
        assert!(profile.starts_with("(version 1)\n"), "{profile}");
        let deny_writes = profile.find("(deny file-write*)").unwrap();
        let allow_writes = profile.find("(allow file-write*\n").unwrap();
        let deny_reads = profile.find("(deny file-read* file-write*").unwrap();
        let back = profile.find("(allow file-read* file-write*").unwrap();
        assert!(deny_writes < allow_writes && allow_writes < deny_reads && deny_reads < back);
        let allowed = &profile[allow_writes..deny_reads];
        for root in ["/Users/me/work", "/Users/me/extra", "/dev/null"] {
            assert!(
                allowed.contains(&format!("\"{root}\")")),
                "{root} in {allowed}"
            );
        }
        let denied = &profile[deny_reads..back];
        for secret in [
            "/Users/me/.ssh",
            "/Users/me/.aws",
            "/Users/me/vault",
            "/Users/me/Library/Application Support/Hearth",
        ] {
            assert!(
                denied.contains(&format!("(subpath \"{secret}\")")),
                "{secret}"
            );
        }
        // The skill's folder inside Hearth's data is given back, and nothing else is.
        assert_eq!(
            &profile[back..profile.find("; The network").unwrap()],
            "(allow file-read* file-write*\n  \
             (subpath \"/Users/me/Library/Application Support/Hearth/skills/pdf\"))\n"
        );
        assert!(profile.contains("(deny network-outbound (remote ip \"*:*\"))"));
        assert!(profile.contains("(deny network-bind (local ip \"*:*\"))"));
    }

    #[test]
    fn read_only_allows_no_root_and_the_network_on_is_not_denied() {
        let profile = seatbelt_profile(&sandbox(Mode::ReadOnly, true));
        assert!(!profile.contains("/Users/me/work"), "{profile}");
        assert!(
            !profile.contains("(subpath \"/Users/me/extra\")"),
            "{profile}"
        );
        assert!(profile.contains("(literal \"/dev/null\")"));
        assert!(!profile.contains("network"), "{profile}");
        assert!(profile.contains("(subpath \"/Users/me/.gnupg\")"));
    }

    #[test]
    fn paths_are_quoted_and_the_command_follows_the_profile() {
        let odd = Sandbox::new(&Settings::default(), None, None).writable("/tmp/a \"b\" \\c");
        let profile = seatbelt_profile(&odd);
        assert!(
            profile.contains(r#"(subpath "/tmp/a \"b\" \\c")"#),
            "{profile}"
        );
        let args = sandbox_exec_args(&profile, "git", ["status".into()]);
        assert_eq!(args[0], "-p");
        assert_eq!(args[1], OsString::from(&profile));
        assert_eq!(&args[2..], ["--", "git", "status"].map(OsString::from));
    }
}
