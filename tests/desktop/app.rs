//! The real Hearth app: launched through tauri-driver in a WebDriver session (waiting for the UI,
//! driving it, quitting it), or started plainly to watch its start-up.

use std::fs::File;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use super::bus;
use super::env::Tools;
use super::home::{eventually, log_tail, Home, PATIENCE};
use super::procs;

/// Seconds the app's window stays hidden in the tray before it is torn down (`0`: never).
pub const TEARDOWN_ENV: &str = "HEARTH_WINDOW_TEARDOWN_SECS";

/// The key the app gets from `HEARTH_API_KEY` for the scripted provider.
pub const ENV_API_KEY: &str = "e2e-environment-key";

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

fn wait_listening(port: u16, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// A launch starts only once the previous app has left the bus: a new instance would otherwise
/// hand its arguments to the dying one (the single-instance plugin) instead of starting.
fn wait_previous_gone() {
    assert!(
        bus::wait_released(bus::SINGLE_INSTANCE, Duration::from_secs(15)),
        "another Hearth still owns {} on this bus",
        bus::SINGLE_INSTANCE
    );
}

/// The app's environment: its data dir, the scripted provider's key, no accessibility bridge.
fn app_command(
    program: &std::path::Path,
    home: &Home,
    env: &[(&str, &str)],
    log: &PathBuf,
) -> Command {
    let out = File::create(log).unwrap();
    let mut command = Command::new(program);
    command
        .env("HEARTH_HOME", home.data())
        .env("HEARTH_API_KEY", ENV_API_KEY)
        .env("NO_AT_BRIDGE", "1")
        // The hidden window is never torn down unless a test asks for it (and its delay).
        .env(TEARDOWN_ENV, "0")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .process_group(0);
    command
}

/// One running app: its WebDriver session, its pid, and the tauri-driver that started it.
pub struct App {
    pub client: Client,
    pub pid: u32,
    driver: Child,
    /// tauri-driver's (and so WebKitWebDriver's and the app's) stdout and stderr.
    pub log: PathBuf,
}

impl App {
    /// Starts tauri-driver (in its own process group) and the app through it, with `env` on top
    /// of the usual environment, then waits until the UI is ready.
    pub async fn launch(tools: &Tools, home: &mut Home, env: &[(&str, &str)]) -> App {
        App::launch_until(tools, home, env, ".app[data-ready=\"true\"]").await
    }

    /// Like [`App::launch`] for an app that cannot start: waits for the start-up error screen.
    pub async fn launch_to_startup_problem(
        tools: &Tools,
        home: &mut Home,
        env: &[(&str, &str)],
    ) -> App {
        let shown = "[data-startup-problem=\"shown\"]";
        App::launch_until(tools, home, env, shown).await
    }

    /// Launches the app and waits for an element matching `ready`.
    async fn launch_until(
        tools: &Tools,
        home: &mut Home,
        env: &[(&str, &str)],
        ready: &str,
    ) -> App {
        wait_previous_gone();
        let log = home.next_log("driver");
        let (port, native_port) = (free_port(), free_port());
        let mut command = app_command(&tools.tauri_driver, home, env, &log);
        command
            .args(["--port", &port.to_string()])
            .args(["--native-port", &native_port.to_string()])
            .arg("--native-driver")
            .arg(&tools.native_driver);
        let driver = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", tools.tauri_driver.display()));
        let mut starting = Starting(Some(driver));
        // tauri-driver forwards the new session to WebKitWebDriver: both must be listening.
        for (what, port) in [("tauri-driver", port), ("WebKitWebDriver", native_port)] {
            let listening = wait_listening(port, Duration::from_secs(20));
            assert!(
                listening,
                "{what} did not listen on port {port}\n{}",
                log_tail(&log)
            );
        }
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("wry"));
        let application = json!({ "application": tools.app.to_string_lossy() });
        caps.insert("tauri:options".into(), application);
        let mut builder = ClientBuilder::rustls().unwrap();
        builder.capabilities(caps);
        let url = format!("http://127.0.0.1:{port}");
        let client = match tokio::time::timeout(PATIENCE, builder.connect(&url)).await {
            Ok(Ok(client)) => client,
            Ok(Err(e)) => panic!("no WebDriver session with the app: {e}\n{}", log_tail(&log)),
            Err(_) => panic!(
                "the app did not start a WebDriver session\n{}",
                log_tail(&log)
            ),
        };
        let driver = starting.0.take().unwrap();
        let pid = procs::find_below(driver.id(), &tools.app, Duration::from_secs(20));
        let app = App {
            client,
            pid: pid.unwrap_or(0),
            driver,
            log,
        };
        assert!(
            pid.is_some(),
            "no app process below tauri-driver\n{}",
            log_tail(&app.log)
        );
        app.wait_css(ready).await;
        app
    }

    /// Drives the app's current main window after it was built again (the old one is gone).
    pub async fn follow_new_window(&self) {
        let handle = eventually("a new window to drive", PATIENCE, || async {
            let current = self.client.window().await.ok();
            let handles = self.client.windows().await.ok()?;
            handles.into_iter().find(|h| Some(h) != current.as_ref())
        })
        .await;
        let switched = self.client.switch_to_window(handle).await;
        switched.unwrap_or_else(|e| panic!("cannot drive the new window: {e}"));
        self.wait_css(".app[data-ready=\"true\"]").await;
    }

    /// Waits for an element matching `css`.
    pub async fn wait_css(&self, css: &str) -> fantoccini::elements::Element {
        let found = self
            .client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await;
        found.unwrap_or_else(|e| {
            panic!(
                "no element matches {css:?} after {PATIENCE:?}: {e}\n{}",
                log_tail(&self.log)
            )
        })
    }

    /// Waits for an element matching the XPath `path`.
    pub async fn wait_xpath(&self, path: &str) -> fantoccini::elements::Element {
        let found = self
            .client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::XPath(path))
            .await;
        found.unwrap_or_else(|e| panic!("nothing matches {path:?} after {PATIENCE:?}: {e}"))
    }

    /// Runs `script` (which may use `arguments[0..]`) and returns its value.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        let value = self.client.execute(script, args).await;
        value.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// The `innerText` of the first element matching `css`, or None.
    pub async fn text_of(&self, css: &str) -> Option<String> {
        let script =
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;";
        let value = self.js(script, vec![json!(css)]).await;
        value.as_str().map(str::to_string)
    }

    /// How many elements match `css`.
    pub async fn count(&self, css: &str) -> u64 {
        let script = "return document.querySelectorAll(arguments[0]).length;";
        self.js(script, vec![json!(css)]).await.as_u64().unwrap()
    }

    /// Clicks the first element matching `css`.
    pub async fn click(&self, css: &str) {
        let clicked = self.wait_css(css).await.click().await;
        clicked.unwrap_or_else(|e| panic!("cannot click {css:?}: {e}"));
    }

    /// Clicks the first element matching the XPath `path`.
    pub async fn click_xpath(&self, path: &str) {
        let clicked = self.wait_xpath(path).await.click().await;
        clicked.unwrap_or_else(|e| panic!("cannot click {path:?}: {e}"));
    }

    /// Types `text` into the first element matching `css`.
    pub async fn type_into(&self, css: &str, text: &str) {
        let typed = self.wait_css(css).await.send_keys(text).await;
        typed.unwrap_or_else(|e| panic!("cannot type into {css:?}: {e}"));
    }

    /// Ends the WebDriver session (which stops the app) and waits for the process to exit.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
        let exited = procs::wait_exit(self.pid, Duration::from_secs(15));
        assert!(
            exited,
            "the app (pid {}) kept running after its session ended",
            self.pid
        );
    }

    /// Clicks an element whose click quits the app and waits for its exit: the driver's answer
    /// to the click may be lost with the window, so a failed click counts only if the app is
    /// still running after `timeout`.
    pub async fn click_to_quit(self, css: &str, timeout: Duration) {
        let clicked = self.wait_css(css).await.click().await;
        let exited = procs::wait_exit(self.pid, timeout);
        assert!(
            exited,
            "the app (pid {}) is still running after a click on {css:?} ({clicked:?})",
            self.pid
        );
    }

    /// After the app quit by itself: waits for its exit (dropping `self` stops tauri-driver).
    pub fn expect_exit(self, timeout: Duration) {
        let exited = procs::wait_exit(self.pid, timeout);
        assert!(exited, "the app (pid {}) is still running", self.pid);
    }
}

/// Stops tauri-driver if a launch fails half-way.
struct Starting(Option<Child>);

impl Drop for Starting {
    fn drop(&mut self) {
        if let Some(driver) = &mut self.0 {
            procs::kill_group_and(driver.id(), None);
            let _ = driver.wait();
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        // Stops everything still running (all of it when a test panics).
        procs::kill_group_and(self.driver.id(), Some(self.pid).filter(|p| *p != 0));
        let _ = self.driver.wait();
    }
}

/// The app started directly, without WebDriver, reporting "ready" to a file.
pub struct PlainApp {
    child: Child,
    ready_file: PathBuf,
    pub log: PathBuf,
}

impl PlainApp {
    /// Starts the app with `env` on top of the test environment.
    pub fn start(tools: &Tools, home: &mut Home, env: &[(&str, &str)]) -> PlainApp {
        PlainApp::start_program(&tools.app, home, env)
    }

    /// Starts `program` (e.g. an installed Hearth) as [`PlainApp::start`] starts the built one.
    pub fn start_program(
        program: &std::path::Path,
        home: &mut Home,
        env: &[(&str, &str)],
    ) -> PlainApp {
        let log = home.next_log("plain");
        let ready_file = home.dir.join("ready");
        let _ = std::fs::remove_file(&ready_file);
        let ready = ready_file.to_string_lossy().into_owned();
        let mut env = env.to_vec();
        env.push(("HEARTH_READY_FILE", ready.as_str()));
        let child = app_command(program, home, &env, &log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        PlainApp {
            child,
            ready_file,
            log,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the UI's ready mark; panics with the app's log if it exits or never gets there.
    pub fn wait_ready(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while !std::fs::metadata(&self.ready_file).is_ok_and(|m| m.len() > 0) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the app exited ({status}) before it was ready\n{}",
                    log_tail(&self.log)
                );
            }
            assert!(
                Instant::now() < deadline,
                "the app was not ready\n{}",
                log_tail(&self.log)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for PlainApp {
    fn drop(&mut self) {
        procs::kill_group_and(self.child.id(), None);
        let _ = self.child.wait();
    }
}
