//! Start-up problems from real data dirs on disk: a database from a newer Hearth or a damaged
//! one is refused byte for byte untouched, a file where the data dir should be, a bad
//! `config.toml`, and how denied folders are told apart.

use super::*;

fn problem(dir: &DataDir) -> StartupProblem {
    let error = open_data(dir).err().expect("opening should fail");
    startup_problem(dir, &error)
}

fn newer_database(dir: &DataDir) -> Vec<u8> {
    dir.ensure().unwrap();
    drop(Store::open(&dir.database()).unwrap());
    let conn = rusqlite::Connection::open(dir.database()).unwrap();
    conn.pragma_update(None, "user_version", 999).unwrap();
    drop(conn);
    std::fs::read(dir.database()).unwrap()
}

#[test]
fn a_database_from_a_newer_hearth_is_refused_and_left_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path().join("data"));
    let before = newer_database(&dir);
    let problem = problem(&dir);
    let StartupProblemKind::DatabaseTooNew { found, supported } = problem.kind else {
        panic!("{problem:?}");
    };
    assert_eq!(found, 999);
    assert!(supported > 0 && supported < found, "{supported}");
    assert_eq!(problem.path, dir.database().display().to_string());
    assert_eq!(problem.data_dir, dir.root().display().to_string());
    assert!(
        problem.message.contains("newer Hearth"),
        "{}",
        problem.message
    );
    assert_eq!(std::fs::read(dir.database()).unwrap(), before);
    // A second attempt (the screen's "Try again") changes nothing either.
    let _ = open_data(&dir).err().unwrap();
    assert_eq!(std::fs::read(dir.database()).unwrap(), before);
}

#[test]
fn a_damaged_database_is_unreadable_and_left_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path().to_path_buf());
    dir.ensure().unwrap();
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(dir.database(), &garbage).unwrap();
    let problem = problem(&dir);
    assert_eq!(problem.kind, StartupProblemKind::DatabaseUnreadable);
    assert_eq!(problem.path, dir.database().display().to_string());
    assert_eq!(std::fs::read(dir.database()).unwrap(), garbage);
}

#[test]
fn a_file_where_the_data_dir_should_be_is_an_unusable_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    std::fs::write(&root, "not a folder").unwrap();
    let dir = DataDir::at(root.clone());
    let problem = problem(&dir);
    assert_eq!(problem.kind, StartupProblemKind::DataDirUnusable);
    assert_eq!(problem.path, root.display().to_string());
    assert_eq!(existing_folder(&root), Some(tmp.path()));
}

#[test]
fn a_misspelled_setting_is_a_settings_problem_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path().to_path_buf());
    dir.ensure().unwrap();
    std::fs::write(dir.config(), "security_profile = \"public_gatway\"\n").unwrap();
    let problem = problem(&dir);
    assert_eq!(problem.kind, StartupProblemKind::InvalidSettings);
    assert_eq!(problem.path, problem.config_path);
    assert!(
        problem.message.contains("public_gatway"),
        "{}",
        problem.message
    );
    assert!(
        !dir.database().exists(),
        "the database is not opened after a settings error"
    );
}

#[test]
fn denied_folders_and_files_are_told_apart_from_unusable_ones() {
    let dir = DataDir::at("/data".into());
    let denied = std::io::Error::from(ErrorKind::PermissionDenied);
    let problem = startup_problem(&dir, &EngineError::Io(denied));
    assert_eq!(problem.kind, StartupProblemKind::DataDirDenied);
    assert_eq!(problem.path, "/data");
    let read_only = rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY),
        None,
    );
    let problem = startup_problem(&dir, &EngineError::Store(StoreError::Sqlite(read_only)));
    assert_eq!(problem.kind, StartupProblemKind::DataDirDenied);
    let full = std::io::Error::from(ErrorKind::StorageFull);
    let problem = startup_problem(&dir, &EngineError::Io(full));
    assert_eq!(problem.kind, StartupProblemKind::DataDirUnusable);
}

#[test]
fn a_bad_updates_table_names_its_key_and_refuses_to_load() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::at(tmp.path().to_path_buf());
    dir.ensure().unwrap();
    let cases = [
        ("[updates]\nchannel = \"beta\"\n", "unknown field `channel`"),
        (
            "[updates]\nendpoint = \"http://example.org/latest.json\"\npubkey = \"a2V5\"\n",
            "must start with https://",
        ),
        (
            "[updates]\nendpoint = \"https://example.org/latest.json\"\n",
            "needs the pubkey",
        ),
    ];
    for (config, why) in cases {
        std::fs::write(dir.config(), config).unwrap();
        let problem = problem(&dir);
        assert_eq!(problem.kind, StartupProblemKind::InvalidSettings);
        assert!(problem.message.contains("updates"), "{}", problem.message);
        assert!(problem.message.contains(why), "{}", problem.message);
    }
    let on = "[updates]\nendpoint = \"https://example.org/{{target}}.json\"\npubkey = \"a2V5\"\n";
    std::fs::write(dir.config(), on).unwrap();
    let (settings, _store) = open_data(&dir).unwrap();
    assert!(settings.updates.enabled());
    assert_eq!(
        settings.updates.endpoint,
        "https://example.org/{{target}}.json"
    );
}
