//! The tool registry every front end uses: the built-in tools plus the families that need the
//! store, the OS or the user's settings (memory, history, jobs, notifications, channels,
//! network), with background processes and terminal sessions kept in a [`Background`] the
//! caller owns.

use std::sync::Arc;

use hearth_browser::{register_browser, BrowserConfig, Browsers};
use hearth_protocol::BrowserSettings;
use hearth_scheduler::RunnerSignal;
use hearth_store::{Db, Store};
use hearth_tools::{
    builtin_registry_on, register_channels, register_history, register_jobs, register_memory,
    register_network, register_notifications, register_planning, Background, Dialect,
    NetworkConfig, Registry,
};

use crate::channels::Channels;
use hearth_core::Notifier;

/// Builds the registry of `dialect` with every tool family wired to `store` (through a [`Db`]
/// of its own), `notifier` and `network` (see [`crate::network_config`]); `process` and `pty`
/// keep their children in `background`, which the caller shuts down when the app exits.
pub fn tool_registry(
    dialect: Dialect,
    store: &Arc<Store>,
    notifier: Arc<dyn Notifier>,
    network: NetworkConfig,
    background: &Background,
) -> Registry {
    let db = Db::new(store.clone());
    let channels = Channels::new(db.clone());
    tool_registry_with_runner(dialect, &db, notifier, network, background, None, channels)
}

/// [`tool_registry`] over the app's `db` (the tools' writes queue with its other writes), whose
/// job tools wake the runner of this process through `signal` (the app), so a job created or
/// triggered from a chat is seen at once, and whose channel tools deliver through `channels`
/// (there only `desktop`).
pub fn tool_registry_with_runner(
    dialect: Dialect,
    db: &Db,
    notifier: Arc<dyn Notifier>,
    network: NetworkConfig,
    background: &Background,
    signal: Option<RunnerSignal>,
    channels: Channels,
) -> Registry {
    let mut registry = builtin_registry_on(dialect, background);
    if let Err(error) = register_network(&mut registry, network) {
        tracing::error!(%error, %dialect, "network tools left out");
    }
    let outcomes = [
        register_memory(&mut registry, db.clone()),
        register_history(&mut registry, db.clone()),
        register_jobs(&mut registry, db.clone(), signal),
        register_notifications(&mut registry, db.clone(), notifier),
        register_planning(&mut registry, db.clone()),
        register_channels(&mut registry, Arc::new(channels)),
    ];
    for error in outcomes.into_iter().filter_map(Result::err) {
        tracing::error!(%error, %dialect, "tool family left out");
    }
    registry
}

/// Adds `browser` (hearth, echo and picobot) over the app's managed browser `browsers`,
/// started with `settings` when first used, reaching on this computer and its network only
/// what `allow_local` (`allow_local_hosts`) allows; the user's own Chrome (`cdp_url`) only when
/// `attended`.
pub fn register_browser_tools(
    registry: &mut Registry,
    browsers: &Browsers,
    settings: &BrowserSettings,
    allow_local: &[String],
    attended: bool,
) {
    let config = BrowserConfig::from_settings(settings, allow_local, attended);
    if let Err(error) = register_browser(registry, browsers, config) {
        tracing::error!(%error, "browser tool left out");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hearth_core::{Notice, NotifyError};
    use hearth_policy::ToolProfile;
    use hearth_tools::{ErrorKind, SearchConfig, ToolContext};
    use tokio_util::sync::CancellationToken;

    struct NoNotifier;

    impl Notifier for NoNotifier {
        fn show(&self, _: &Notice) -> Result<String, NotifyError> {
            Ok("0".into())
        }
    }

    fn registry(network: NetworkConfig, background: &Background) -> Registry {
        let store = Arc::new(Store::open_in_memory().unwrap());
        tool_registry(
            Dialect::Hearth,
            &store,
            Arc::new(NoNotifier),
            network,
            background,
        )
    }

    fn context(dir: &tempfile::TempDir) -> ToolContext {
        ToolContext {
            workspace: dir.path().to_path_buf(),
            data_dir: dir.path().to_path_buf(),
            session_id: "s".into(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        }
    }

    #[test]
    fn the_network_and_execution_tools_are_registered() {
        let names: Vec<String> = registry(NetworkConfig::default(), &Background::new())
            .specs(ToolProfile::Full)
            .into_iter()
            .map(|spec| spec.name)
            .collect();
        for tool in [
            "http_request",
            "web_fetch",
            "web_search",
            "exec",
            "process",
            "pty",
        ] {
            assert!(names.iter().any(|n| n == tool), "{tool} missing: {names:?}");
        }
    }

    #[tokio::test]
    async fn the_network_config_reaches_the_tools() {
        let dir = tempfile::tempdir().unwrap();
        let unconfigured = registry(NetworkConfig::default(), &Background::new());
        let error = unconfigured
            .dispatch("web_search", r#"{"query":"rust"}"#, &context(&dir))
            .await
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::Unavailable, "{error:?}");

        let local_searxng = NetworkConfig {
            allow_local: Vec::new(),
            search: SearchConfig {
                searxng_url: Some("http://127.0.0.1:9/".into()),
                ..SearchConfig::default()
            },
        };
        let error = registry(local_searxng, &Background::new())
            .dispatch("web_search", r#"{"query":"rust"}"#, &context(&dir))
            .await
            .unwrap_err();
        assert!(error.message.contains("allow_local_hosts"), "{error:?}");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn background_processes_outlive_a_rebuilt_registry_and_die_at_shutdown() {
        let dir = tempfile::tempdir().unwrap();
        let background = Background::new();
        let first = registry(NetworkConfig::default(), &background);
        let started = first
            .dispatch(
                "process",
                r#"{"action":"start","command":"sleep 300"}"#,
                &context(&dir),
            )
            .await
            .unwrap();
        let pid = started["pid"].as_u64().unwrap();
        drop(first);
        let second = registry(NetworkConfig::default(), &background);
        let listed = second
            .dispatch("process", r#"{"action":"list"}"#, &context(&dir))
            .await
            .unwrap();
        assert_eq!(listed["processes"][0]["status"], "running", "{listed}");
        assert!(alive(pid));

        assert_eq!(background.shutdown(), 1);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while alive(pid) && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert!(!alive(pid), "pid {pid} survived the shutdown");
    }

    /// Whether `pid` is a live (not zombie) process.
    #[cfg(target_os = "linux")]
    fn alive(pid: u64) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(')')
                    .map(|(_, rest)| !rest.trim_start().starts_with('Z'))
            })
            .unwrap_or(false)
    }
}
