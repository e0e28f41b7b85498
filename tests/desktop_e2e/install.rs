//! The Linux package for real: the `.deb` that `scripts/package.sh` built (its path in
//! `HEARTH_DEB`) is installed with apt, its menu entry's `Exec` line starts the installed
//! Hearth, which shows its window and reaches the ready mark, is quit from the tray, and the
//! package is removed with none of its files left behind. Ignored by default (it installs into
//! the system, so needs root): `scripts/test.sh` runs it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::desktop::app::PlainApp;
use crate::desktop::home::{Home, PATIENCE};
use crate::desktop::procs;
use crate::desktop::tray::TrayMenu;
use crate::desktop_e2e::setup;
use crate::desktop_e2e::tray::wait_window;

const DESKTOP_ENTRY: &str = "/usr/share/applications/Hearth.desktop";

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{program} {args:?} failed ({}):\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The program a desktop entry's `Exec` line starts, found on PATH as a launcher would.
fn exec_program(entry: &str) -> PathBuf {
    let exec = entry
        .lines()
        .find_map(|line| line.strip_prefix("Exec="))
        .unwrap_or_else(|| panic!("no Exec line in {entry}"));
    let program = exec.split_whitespace().next().unwrap();
    let path = std::env::var_os("PATH").unwrap();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("{program} (from Exec={exec}) is not on PATH"))
}

/// Files (not folders) the installed package owns.
fn package_files() -> Vec<PathBuf> {
    let listed = run("dpkg", &["-L", "hearth"]);
    let paths = listed.lines().map(PathBuf::from);
    paths.filter(|p| !p.is_dir()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "installs the .deb into the system (root): run by scripts/test.sh"]
async fn the_deb_installs_starts_from_its_menu_entry_quits_from_the_tray_and_removes_cleanly() {
    let (_turn, tools, _fake) = setup().await;
    let deb = std::env::var("HEARTH_DEB").expect("HEARTH_DEB: the .deb to test");
    let deb = std::fs::canonicalize(&deb).unwrap_or_else(|e| panic!("{deb}: {e}"));
    let control = run("dpkg-deb", &["--field", deb.to_str().unwrap(), "Depends"]);
    for dependency in [
        "libwebkit2gtk-4.1-0",
        "libgtk-3-0",
        "libayatana-appindicator3-1",
    ] {
        assert!(control.contains(dependency), "Depends: {control}");
    }
    run(
        "apt-get",
        &[
            "install",
            "-y",
            "-q",
            "--no-install-recommends",
            deb.to_str().unwrap(),
        ],
    );
    let files = package_files();

    let entry = std::fs::read_to_string(DESKTOP_ENTRY).unwrap();
    for line in [
        "Name=Hearth",
        "Icon=hearth",
        "Type=Application",
        "Terminal=false",
    ] {
        assert!(
            entry.lines().any(|l| l == line),
            "{line} missing from {entry}"
        );
    }
    let program = exec_program(&entry);
    assert_eq!(program, Path::new("/usr/bin/hearth"));
    assert!(files.contains(&program), "{files:?}");
    assert!(
        files
            .iter()
            .any(|f| f.starts_with("/usr/share/icons/hicolor") && f.ends_with("apps/hearth.png")),
        "no menu icon in {files:?}"
    );
    // The workers are installed beside the app, and start (their libraries are all there).
    for worker in ["hearth-document-worker", "hearth-model-worker"] {
        let path = program.with_file_name(worker);
        assert!(files.contains(&path), "{worker} is not in {files:?}");
        let by_hand = Command::new(&path).output().unwrap();
        assert_eq!(by_hand.status.code(), Some(2), "{worker}: {by_hand:?}");
        assert!(
            String::from_utf8_lossy(&by_hand.stderr).contains("it is not run by hand"),
            "{worker}: {by_hand:?}"
        );
    }

    let mut home = Home::new(&tools, "installed", "http://127.0.0.1:9");
    let mut app = PlainApp::start_program(&program, &mut home, &[]);
    app.wait_ready(PATIENCE);
    let pid = app.pid();
    wait_window(pid, true).await;
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap();
    assert_eq!(exe, program, "the installed binary is what runs");
    TrayMenu::find(pid, PATIENCE).click("Quit");
    assert!(
        procs::wait_exit(pid, Duration::from_secs(15)),
        "Quit did not end the app"
    );
    drop(app);

    run("apt-get", &["remove", "-y", "-q", "hearth"]);
    let status = Command::new("dpkg")
        .args(["-s", "hearth"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        !status.status.success() || !text.contains("Status: install ok installed"),
        "{text}"
    );
    let left: Vec<&PathBuf> = files.iter().filter(|f| f.exists()).collect();
    assert!(left.is_empty(), "left behind after removal: {left:?}");
    assert!(
        home.data().join("hearth.db").is_file(),
        "the user's data stays"
    );
}
