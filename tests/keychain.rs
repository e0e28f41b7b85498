//! The OS-keychain adapter against the session's real gnome-keyring (Secret Service over zbus):
//! a key keyring 3's libdbus backend wrote (its attributes, written here with `secret-tool`) is
//! read, replaced in place and deleted; a missing key is no key; threads share one connection.
//! Needs a D-Bus session with an unlocked keyring (`scripts/with-headless-session.sh`).

use std::process::{Command, Stdio};

use hearth_core::{KeyringStore, SecretStore, KEYCHAIN_SERVICE};

/// An account no other test or run uses.
fn account(name: &str) -> String {
    let nanos = std::time::SystemTime::UNIX_EPOCH.elapsed().unwrap().as_nanos();
    format!("test:{name}:{}:{nanos}", std::process::id())
}

/// Stores `secret` the way keyring 3 (`sync-secret-service`) did: its four attributes.
fn store_as_keyring_3(account: &str, secret: &str) {
    let mut child = Command::new("secret-tool")
        .args(["store", "--label", "keyring 3 item", "service", KEYCHAIN_SERVICE])
        .args(["username", account, "target", "default", "application", "rust-keyring"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(secret.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
}

/// How many items the keyring holds for `account`, and their secrets.
fn items(account: &str) -> Vec<String> {
    let out = Command::new("secret-tool")
        .args(["search", "--all", "service", KEYCHAIN_SERVICE, "username", account])
        .output()
        .unwrap();
    // The secret is on stdout, one `secret = …` line per item (attributes go to stderr).
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("secret = ").map(str::to_string))
        .collect()
}

#[test]
fn a_key_keyring_3_wrote_is_read_replaced_in_place_and_deleted() {
    let store = KeyringStore::new();
    let account = account("upgrade");
    store_as_keyring_3(&account, "sk-old");
    assert_eq!(store.get(&account).unwrap().as_deref(), Some("sk-old"));

    store.set(&account, "sk-new").unwrap();
    assert_eq!(items(&account), ["sk-new"], "replaced, not a second item");
    assert_eq!(store.get(&account).unwrap().as_deref(), Some("sk-new"));

    store.delete(&account).unwrap();
    assert!(items(&account).is_empty());
    assert_eq!(store.get(&account).unwrap(), None);
    // Deleting what is not there is not an error.
    store.delete(&account).unwrap();
}

#[test]
fn keys_written_from_several_threads_each_read_back() {
    let accounts: Vec<String> = (0..4).map(|i| account(&format!("thread{i}"))).collect();
    std::thread::scope(|scope| {
        for (i, account) in accounts.iter().enumerate() {
            scope.spawn(move || {
                let store = KeyringStore::new();
                assert_eq!(store.get(account).unwrap(), None);
                store.set(account, &format!("secret-{i}")).unwrap();
                assert_eq!(store.get(account).unwrap(), Some(format!("secret-{i}")));
            });
        }
    });
    for account in &accounts {
        assert_eq!(items(account).len(), 1);
        KeyringStore::new().delete(account).unwrap();
    }
}
