//! Whether the desktop shows tray icons: on Linux a StatusNotifier host registers
//! `org.kde.StatusNotifierWatcher` on the session bus (stock GNOME and many Wayland sessions have
//! none, so Hearth's tray icon never appears); Windows and macOS always have one.

/// The well-known name a StatusNotifier/AppIndicator host owns.
#[cfg(target_os = "linux")]
pub const WATCHER: &str = "org.kde.StatusNotifierWatcher";

/// How long the session bus may take to answer before the desktop counts as having no tray.
#[cfg(target_os = "linux")]
const ASK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether someone owns [`WATCHER`] on the session bus; a bus that cannot be reached (or does
/// not answer in time) means no tray.
#[cfg(target_os = "linux")]
pub async fn present() -> bool {
    let asked = tokio::time::timeout(ASK_TIMEOUT, watcher_owned()).await;
    match asked {
        Ok(Ok(owned)) => owned,
        Ok(Err(error)) => {
            tracing::info!(%error, "session bus not reachable: counting as no tray icon host");
            false
        }
        Err(_) => {
            tracing::info!("the session bus did not answer: counting as no tray icon host");
            false
        }
    }
}

#[cfg(target_os = "linux")]
async fn watcher_owned() -> zbus::Result<bool> {
    let connection = zbus::Connection::session().await?;
    let bus = zbus::fdo::DBusProxy::new(&connection).await?;
    let name = zbus::names::BusName::try_from(WATCHER)?;
    Ok(bus.name_has_owner(name).await?)
}

#[cfg(not(target_os = "linux"))]
pub async fn present() -> bool {
    true
}
