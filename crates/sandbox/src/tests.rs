//! The sandbox with real programs on the real kernel: what a confined shell may write, read and
//! reach.

#![cfg(target_os = "linux")]
use crate::{confine, spawn_std, Mode, Sandbox, Settings};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output, Stdio};

struct Rig {
    _dir: tempfile::TempDir,
    home: std::path::PathBuf,
    data: std::path::PathBuf,
    work: std::path::PathBuf,
}

fn rig() -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (home, data, work) = (root.join("home"), root.join("data"), root.join("home/work"));
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("hearth.db"), "history").unwrap();
    std::fs::write(data.join("config.toml"), "[security]\n").unwrap();
    std::fs::create_dir_all(&work).unwrap();
    Rig {
        _dir: dir,
        home,
        data,
        work,
    }
}

impl Rig {
    fn sandbox(&self, settings: &Settings) -> Sandbox {
        Sandbox::new(settings, Some(&self.home), Some(&self.data)).writable(&self.work)
    }
}

fn sh(sandbox: &Sandbox, script: &str, cwd: &Path) -> (Output, &'static str) {
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", script])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (child, isolation) = spawn_std(sandbox, command).unwrap();
    (child.wait_with_output().unwrap(), isolation.kind)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn writes_stay_in_the_workspace_and_secrets_stay_unreadable() {
    let rig = rig();
    let sandbox = rig.sandbox(&Settings::default());
    let (out, kind) = sh(&sandbox, "echo ok > made.txt && cat made.txt", &rig.work);
    assert_eq!(kind, "landlock+netns");
    assert_eq!(text(&out.stdout), "ok\n", "{}", text(&out.stderr));
    for script in [
        format!("touch {}/outside", rig.home.display()),
        format!("cat {}/.ssh/id_ed25519", rig.home.display()),
        format!("cat {}/hearth.db", rig.data.display()),
        format!(
            "echo 'sandbox = \"off\"' >> {}/config.toml",
            rig.data.display()
        ),
    ] {
        let (out, _) = sh(&sandbox, &script, &rig.work);
        assert!(!out.status.success(), "`{script}` succeeded");
        assert!(
            text(&out.stderr).contains("Permission denied"),
            "`{script}`: {}",
            text(&out.stderr)
        );
    }
    assert!(!rig.home.join("outside").exists());
    assert_eq!(
        std::fs::read_to_string(rig.data.join("config.toml")).unwrap(),
        "[security]\n"
    );
    // Everything else still reads: the system and the rest of the home folder.
    let (out, _) = sh(
        &sandbox,
        "cat /etc/hostname >/dev/null && ls .. && id -u",
        &rig.work,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("work"));
}

#[test]
fn read_only_refuses_writes_even_in_the_workspace() {
    let rig = rig();
    let settings = Settings {
        mode: Mode::ReadOnly,
        ..Settings::default()
    };
    let (out, _) = sh(&rig.sandbox(&settings), "touch made.txt", &rig.work);
    assert!(!out.status.success());
    assert!(!rig.work.join("made.txt").exists());
}

/// A local server that counts the connections it got, without waiting.
fn accepted(listener: &TcpListener) -> usize {
    listener.set_nonblocking(true).unwrap();
    std::iter::from_fn(|| listener.accept().ok()).count()
}

fn connect_script(port: u16) -> String {
    format!(
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 2); print(\"connected\")'"
    )
}

#[test]
fn the_network_is_off_unless_granted() {
    let rig = rig();
    let canary = TcpListener::bind("127.0.0.1:0").unwrap();
    let script = connect_script(canary.local_addr().unwrap().port());
    let (out, kind) = sh(&rig.sandbox(&Settings::default()), &script, &rig.work);
    assert_eq!(kind, "landlock+netns");
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert_eq!(accepted(&canary), 0);

    let (out, kind) = sh(
        &rig.sandbox(&Settings::default()).network(true),
        &script,
        &rig.work,
    );
    assert_eq!(kind, "landlock");
    assert_eq!(text(&out.stdout), "connected\n", "{}", text(&out.stderr));
    assert_eq!(accepted(&canary), 1);
}

#[test]
fn a_program_started_by_a_library_gets_the_seccomp_cut() {
    let rig = rig();
    let canary = TcpListener::bind("127.0.0.1:0").unwrap();
    let script = connect_script(canary.local_addr().unwrap().port());
    let sandbox = rig.sandbox(&Settings::default());
    let (out, isolation) = confine(&sandbox, "sh", || {
        Command::new("/bin/sh").args(["-c", &script]).output()
    })
    .unwrap();
    assert_eq!(isolation.kind, "landlock+seccomp");
    assert!(
        text(&out.stderr).contains("Permission denied"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(accepted(&canary), 0);
    // Local sockets still work under the filter.
    let (out, _) = confine(&sandbox, "sh", || {
        Command::new("python3")
            .args(["-c", "import socket; socket.socketpair(); print('unix')"])
            .output()
    })
    .unwrap();
    assert_eq!(text(&out.stdout), "unix\n", "{}", text(&out.stderr));
}

#[test]
fn off_runs_with_all_rights_and_says_so() {
    let rig = rig();
    let settings = Settings {
        mode: Mode::Off,
        ..Settings::default()
    };
    let script = format!("cat {}/.ssh/id_ed25519", rig.home.display());
    let (out, kind) = sh(&rig.sandbox(&settings), &script, &rig.work);
    assert_eq!(kind, "none");
    assert_eq!(text(&out.stdout), "PRIVATE KEY");
}

#[test]
fn a_file_added_to_a_walked_folder_is_readable_by_the_next_program() {
    let rig = rig();
    let sandbox = rig.sandbox(&Settings::default());
    let (out, _) = sh(&sandbox, "ls ..", &rig.work);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The home folder was walked (it holds `.ssh`); its ruleset is kept for the next program.
    std::fs::write(rig.home.join("added.txt"), "new").unwrap();
    let (out, _) = sh(&sandbox, "cat ../added.txt", &rig.work);
    assert_eq!(text(&out.stdout), "new", "{}", text(&out.stderr));
}

#[test]
fn a_denied_path_inside_a_writable_folder_stays_unreadable() {
    let rig = rig();
    // The whole rig (holding the home and its `.ssh`) writable, as the temp folder is for MCP
    // servers when the home lies under it.
    let root = rig.home.parent().unwrap().to_path_buf();
    let sandbox = rig.sandbox(&Settings::default()).writable(&root);
    let script = format!(
        "cat {0}/.ssh/id_ed25519; echo ok > {0}/work/inside.txt && cat {0}/work/inside.txt",
        rig.home.display()
    );
    let (out, _) = sh(&sandbox, &script, &rig.work);
    assert!(
        text(&out.stderr).contains("Permission denied"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "ok\n");
}
