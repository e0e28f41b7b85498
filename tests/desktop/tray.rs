//! The app's tray menu over D-Bus: finds the `com.canonical.dbusmenu` object the app's tray
//! icon exports (libayatana-appindicator), reads its items and clicks them, as a panel would.

use std::time::{Duration, Instant};

use super::bus;

/// The tray menu of one running app.
#[derive(Debug, Clone)]
pub struct TrayMenu {
    pub bus_name: String,
    pub path: String,
}

impl TrayMenu {
    /// Finds the dbusmenu object exported by process `pid`, waiting up to `timeout`.
    pub fn find(pid: u32, timeout: Duration) -> TrayMenu {
        let deadline = Instant::now() + timeout;
        loop {
            for name in bus::names_of(pid) {
                let menus = bus::objects_with(&name, "com.canonical.dbusmenu");
                if let Some(path) = menus.into_iter().next() {
                    return TrayMenu {
                        bus_name: name,
                        path,
                    };
                }
            }
            assert!(
                Instant::now() < deadline,
                "process {pid} exports no com.canonical.dbusmenu object on the session bus (no tray menu)"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// `(id, label)` of every item, in menu order.
    pub fn items(&self) -> Vec<(i32, String)> {
        let layout = bus::call(
            &self.bus_name,
            &self.path,
            "com.canonical.dbusmenu.GetLayout",
            &["0", "-1", "['label']"],
        )
        .unwrap_or_else(|e| panic!("GetLayout failed: {e}"));
        // Children look like "<(3, {'label': <'Quit'>}, @av [])>".
        layout
            .split("<(")
            .skip(1)
            .filter_map(|item| {
                let end = item.find(',')?;
                let id = item[..end].trim().parse().ok()?;
                let label_at = item.find("'label': <'")? + "'label': <'".len();
                let label_end = item[label_at..].find("'>")?;
                Some((id, item[label_at..label_at + label_end].to_string()))
            })
            .collect()
    }

    /// Clicks the item labelled `label`.
    pub fn click(&self, label: &str) {
        let items = self.items();
        let id = items
            .iter()
            .find(|(_, l)| l == label)
            .map(|(id, _)| *id)
            .unwrap_or_else(|| panic!("no tray item {label:?} in {items:?}"));
        bus::call(
            &self.bus_name,
            &self.path,
            "com.canonical.dbusmenu.Event",
            &[&id.to_string(), "clicked", "<int32 0>", "0"],
        )
        .unwrap_or_else(|e| panic!("clicking tray item {label:?} failed: {e}"));
    }
}
