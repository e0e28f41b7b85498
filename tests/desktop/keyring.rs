//! A session bus of its own with a gnome-keyring that has no login (default) collection, as on
//! a desktop where the login keyring was never created or unlocked: every key lookup ends in
//! the Secret Service's "no result found". The app started with [`NoLoginKeyring::env`] talks
//! to it instead of the suite's unlocked keyring.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A private `dbus-daemon` and a gnome-keyring on it; both stop when dropped.
pub struct NoLoginKeyring {
    bus: Child,
    keyring: Child,
    /// The private bus's address.
    pub address: String,
}

fn gdbus_on(address: &str, dest: &str, path: &str, method: &str, args: &[&str]) -> String {
    let out = Command::new("gdbus")
        .args(["call", "--address", address, "--dest", dest])
        .args(["--object-path", path, "--method", method, "--"])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl NoLoginKeyring {
    /// Starts both under `dir` (its keyring files stay there, empty).
    pub fn start(dir: &Path) -> NoLoginKeyring {
        let (data, run) = (dir.join("data"), dir.join("run"));
        for made in [&data, &run] {
            std::fs::create_dir_all(made).unwrap();
        }
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).unwrap();
        let mut bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = address.trim().to_string();
        assert!(!address.is_empty(), "dbus-daemon printed no address");
        let keyring = Command::new("gnome-keyring-daemon")
            .args(["--foreground", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("XDG_DATA_HOME", &data)
            .env("XDG_RUNTIME_DIR", &run)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = NoLoginKeyring {
            bus,
            keyring,
            address,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !started.owns("org.freedesktop.secrets") {
            assert!(
                Instant::now() < deadline,
                "gnome-keyring did not own org.freedesktop.secrets on the private bus"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        started
    }

    fn owns(&self, name: &str) -> bool {
        let reply = gdbus_on(
            &self.address,
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner",
            &[name],
        );
        reply.contains("true")
    }

    /// Whether the keyring has no default collection (`ReadAlias("default")` answers `/`), the
    /// state in which lookups answer "no result found".
    pub fn has_no_default_collection(&self) -> bool {
        let reply = gdbus_on(
            &self.address,
            "org.freedesktop.secrets",
            "/org/freedesktop/secrets",
            "org.freedesktop.Secret.Service.ReadAlias",
            &["default"],
        );
        reply.trim() == "(objectpath '/',)"
    }

    /// The environment that points an app at this bus.
    pub fn env(&self) -> [(&str, &str); 1] {
        [("DBUS_SESSION_BUS_ADDRESS", self.address.as_str())]
    }
}

impl Drop for NoLoginKeyring {
    fn drop(&mut self) {
        for child in [&mut self.keyring, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
