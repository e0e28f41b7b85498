//! The harness: a data dir whose `config.toml` points at the scripted model server, the CLI run
//! as a child process, a daemon child stopped with SIGTERM, and polling helpers.

use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use hearth_store::{NewSession, Store};
use hearth_tests::ScriptedServer;
use serde_json::Value;
use tokio::process::{Child, Command};

pub const MODEL: &str = "test-model";

pub struct Home {
    pub dir: tempfile::TempDir,
}

impl Home {
    /// A data dir configured for `server` (OpenAI-compatible provider `scripted`, tool profile
    /// `full`).
    pub fn new(server: &ScriptedServer) -> Home {
        let dir = tempfile::tempdir().unwrap();
        let config = format!(
            "default_provider = \"scripted\"\ntool_profile = \"full\"\n\n[[providers]]\n\
             id = \"scripted\"\nname = \"Scripted\"\nkind = \"openai\"\nbase_url = \"{}\"\n\
             default_model = \"{MODEL}\"\n",
            server.openai_base()
        );
        std::fs::write(dir.path().join("config.toml"), config).unwrap();
        Home { dir }
    }

    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hearth-cli"));
        cmd.env("HEARTH_HOME", self.dir.path())
            .env("HEARTH_LOG", "info")
            .env("HEARTH_API_KEY", "sk-test-headless")
            .env_remove("OPENAI_API_KEY")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .stdin(Stdio::null())
            .kill_on_drop(true);
        cmd
    }

    pub async fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().await.unwrap()
    }

    /// Runs and asserts success; returns stdout.
    pub async fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args).await;
        assert!(
            out.status.success(),
            "{args:?} failed: {}{}",
            text(&out.stderr),
            text(&out.stdout)
        );
        text(&out.stdout)
    }

    pub async fn json(&self, args: &[&str]) -> Value {
        let stdout = self.ok(args).await;
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
    }

    pub fn store(&self) -> Store {
        Store::open(&self.dir.path().join("hearth.db")).unwrap()
    }

    /// A desktop session to deliver into.
    pub fn target_session(&self) -> String {
        let id = format!("desktop:{}", uuid_like());
        self.store()
            .create_session(&NewSession {
                id: id.clone(),
                title: "Deliveries".to_string(),
                model: None,
                workspace: None,
                tool_profile: "full".to_string(),
            })
            .unwrap();
        id
    }

    /// `jobs add` with these fields, asserting it succeeds.
    pub async fn add_job(
        &self,
        name: &str,
        schedule: &str,
        instruction: &str,
        target: Option<&str>,
    ) {
        let mut args = vec![
            "jobs",
            "add",
            "--name",
            name,
            "--schedule",
            schedule,
            "--instruction",
            instruction,
        ];
        if let Some(target) = target {
            args.extend(["--target", target]);
        }
        self.ok(&args).await;
    }

    pub fn spawn_daemon(&self) -> Child {
        self.command()
            .args(["daemon", "--tick", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Polls until `jobs list --json` shows a live scheduler.
    pub async fn wait_for_scheduler(&self) {
        let list = self
            .wait_for(&["jobs", "list", "--json"], |v| {
                v["scheduler"]["alive"] == true
            })
            .await;
        assert_eq!(list["scheduler"]["alive"], true);
    }

    /// Polls `args`' JSON output until `done` holds (60 s at most).
    pub async fn wait_for(&self, args: &[&str], done: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let value = self.json(args).await;
            if done(&value) {
                return value;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "timed out: {value}"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// The job's runs (newest first), polled until one has finished (60 s at most).
    pub async fn wait_for_runs(&self, job: &str, count: usize) -> Vec<Value> {
        let started = Instant::now();
        loop {
            let runs = self.json(&["jobs", "history", job, "--json"]).await;
            let runs = runs.as_array().unwrap().clone();
            let finished = runs.iter().filter(|r| r["status"] != "running").count();
            if finished >= count {
                return runs;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "timed out: {runs:?}"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// The idle signal that stands in for a fixed "nothing else happened" wait after `job` ran:
    /// polls until the daemon's runner has beaten its heartbeat since the job's last run
    /// finished. The runner beats at the start of each turn of its loop and starts everything
    /// due in that turn, so a burst of runs (a next run time still in the past) has been
    /// recorded by then. (The beat before the run started is older than the run's end: the run
    /// calls the model server.)
    pub async fn wait_for_runner_turn_after(&self, job: &str) {
        let store = self.store();
        let job_id = store.find_job(job).unwrap().unwrap().id;
        let started = Instant::now();
        loop {
            let runs = store.list_job_runs(&job_id, 100).unwrap();
            let finished = runs.iter().filter_map(|run| run.finished_at).max();
            let beat = store.scheduler_status().unwrap().map(|beat| beat.beat_at);
            if let (Some(finished), Some(beat)) = (finished, beat) {
                if beat >= finished {
                    return;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the runner never turned after the run: {runs:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Sends SIGTERM and waits for a clean exit; returns the daemon's stderr.
pub async fn stop_daemon(mut daemon: Child) -> String {
    let pid = daemon.id().unwrap().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = tokio::time::timeout(Duration::from_secs(30), async {
        let status = daemon.wait().await.unwrap();
        let mut stderr = String::new();
        if let Some(mut pipe) = daemon.stderr.take() {
            use tokio::io::AsyncReadExt;
            pipe.read_to_string(&mut stderr).await.unwrap();
        }
        (status, stderr)
    })
    .await
    .expect("the daemon stops within 30 s of SIGTERM");
    assert!(out.0.success(), "daemon exit {:?}: {}", out.0, out.1);
    out.1
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

fn uuid_like() -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("{:x}-{}-{n}", now_ms(), std::process::id())
}

/// Every message text of a session.
pub fn session_texts(store: &Store, session_id: &str) -> Vec<(String, String)> {
    store
        .list_messages(session_id)
        .unwrap()
        .into_iter()
        .map(|m| (m.role.as_str().to_string(), m.text()))
        .collect()
}
