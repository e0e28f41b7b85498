//! The start-up error screen in the real app: a database written by a newer Hearth, a
//! misspelled `config.toml` and a data dir this user may not change each show what happened,
//! what to do and the path instead of the app (the database left byte for byte as it was),
//! "Open folder" hands the data dir to the file manager, and Quit ends the app.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::desktop::app::App;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop_e2e::setup;

/// A `hearth.db` whose schema version is above every migration this Hearth knows.
fn newer_database(home: &Home) -> Vec<u8> {
    let path = home.data().join("hearth.db");
    drop(hearth_store::Store::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 999).unwrap();
    drop(conn);
    std::fs::read(&path).unwrap()
}

/// A stand-in `xdg-open` on the app's PATH that records what it was asked to open.
fn fake_file_manager(home: &Home) -> (String, std::path::PathBuf) {
    let bin = home.dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let opened = home.dir.join("opened.txt");
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{}'\n",
        opened.display()
    );
    let program = bin.join("xdg-open");
    std::fs::write(&program, script).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    (path, opened)
}

/// What the start-up error screen shows.
struct Screen {
    title: String,
    explanation: String,
    message: String,
    path: String,
}

/// Waits for the screen of problem `kind` and reads it.
async fn screen(app: &App, kind: &str) -> Screen {
    app.wait_css(&format!(
        "[data-startup-problem=\"shown\"][data-kind=\"{kind}\"]"
    ))
    .await;
    let text = |part: &'static str| async move {
        let found = app.text_of(&format!("[data-startup=\"{part}\"]")).await;
        found.unwrap_or_else(|| panic!("the screen shows no {part}"))
    };
    Screen {
        title: text("title").await,
        explanation: text("explanation").await,
        message: text("message").await,
        path: text("path").await,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_hearth_gets_the_error_screen_and_stays_untouched() {
    let (_turn, tools, _fake) = setup().await;
    let mut home = Home::new(&tools, "newer-database", "http://127.0.0.1:9");
    let before = newer_database(&home);
    let (path, opened) = fake_file_manager(&home);
    let app = App::launch_to_startup_problem(&tools, &mut home, &[("PATH", &path)]).await;
    let shown = screen(&app, "database_too_new").await;
    assert_eq!(shown.title, "This database is from a newer Hearth");
    let explanation = &shown.explanation;
    assert!(
        explanation.contains("(schema version 999; this version reads up to"),
        "{explanation}"
    );
    assert!(explanation.contains("It was left unchanged."));
    let database = home.data().join("hearth.db");
    assert_eq!(shown.path, database.display().to_string());
    assert_eq!(app.count(".app").await, 0, "the app itself did not start");

    app.click("[data-startup=\"open-folder\"]").await;
    let asked = eventually("the file manager to be asked", PATIENCE, || async {
        std::fs::read_to_string(&opened)
            .ok()
            .filter(|t| !t.is_empty())
    })
    .await;
    assert_eq!(asked.trim(), home.data().display().to_string());

    // The app may exit before WebDriver answers the click: the exit below is what is checked.
    let quit =
        "[...document.querySelectorAll('button')].find((b) => b.innerText === 'Quit').click()";
    let _ = app.client.execute(quit, vec![]).await;
    app.expect_exit(Duration::from_secs(15));
    assert!(
        std::fs::read(&database).unwrap() == before,
        "hearth.db changed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misspelled_security_profile_names_the_file_key_value_and_choices() {
    let (_turn, tools, _fake) = setup().await;
    let mut home = Home::new(&tools, "bad-config", "http://127.0.0.1:9");
    let config = home.data().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!("security_profile = \"public_gatway\"\n{text}"),
    )
    .unwrap();
    let app = App::launch_to_startup_problem(&tools, &mut home, &[]).await;
    let shown = screen(&app, "invalid_settings").await;
    assert_eq!(shown.title, "Hearth’s settings file does not load");
    let message = &shown.message;
    assert_eq!(message.lines().count(), 1, "{message}");
    for part in [
        config.display().to_string().as_str(),
        "security_profile",
        "public_gatway",
        "personal_cli",
        "public_gateway",
    ] {
        assert!(message.contains(part), "{part:?} missing from {message:?}");
    }
    assert_eq!(shown.path, config.display().to_string());
    assert!(
        !home.data().join("hearth.db").exists(),
        "no database is opened under settings Hearth could not read"
    );
    app.close().await;
}

/// Takes away this user's right to change `dir`, as with another user's folder: a read-only
/// mode, or for root (whom modes do not stop) the immutable attribute. Given back on drop.
struct Denied(PathBuf);

impl Denied {
    fn new(dir: &Path) -> Denied {
        let denied = Denied(dir.to_path_buf());
        denied.set(true);
        denied
    }

    fn set(&self, denied: bool) {
        let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
        if root {
            let flag = if denied { "+i" } else { "-i" };
            let status = Command::new("chattr").arg(flag).arg(&self.0).status();
            assert!(
                status.unwrap().success(),
                "chattr {flag} {}",
                self.0.display()
            );
        } else {
            let mode = if denied { 0o500 } else { 0o755 };
            std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    }
}

impl Drop for Denied {
    fn drop(&mut self) {
        self.set(false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_dir_this_user_may_not_change_gets_the_error_screen() {
    let (_turn, tools, _fake) = setup().await;
    let mut home = Home::new(&tools, "denied-data-dir", "http://127.0.0.1:9");
    let _denied = Denied::new(&home.data());
    let app = App::launch_to_startup_problem(&tools, &mut home, &[]).await;
    let shown = screen(&app, "data_dir_denied").await;
    assert_eq!(shown.title, "Hearth may not use its data folder");
    let explanation = &shown.explanation;
    assert!(
        explanation.contains("read and write access"),
        "{explanation}"
    );
    assert_eq!(shown.path, home.data().display().to_string());
    let message = &shown.message;
    assert!(
        message.to_lowercase().contains("not permitted") || message.contains("denied"),
        "{message}"
    );
    app.close().await;
}
