//! What `hearth-cli` started ends with it: SIGINT, SIGTERM and SIGHUP end a hung MCP server,
//! an `exec` child and a `process start` child, each with a grandchild that left with `setsid`
//! and was orphaned; after `kill -9` the hung MCP server (with its own child) and the managed
//! Chromium end too. Processes are real programs, found through `/proc` and polled for with a
//! deadline.
#![cfg(target_os = "linux")]

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::cli::Cli;

const DEADLINE: Duration = Duration::from_secs(20);

/// A `sleep` argument no other process has: finds that process through its command line.
fn marker() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("86000.{}{n:03}", std::process::id())
}

fn cmdline(pid: i32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|bytes| {
            bytes
                .split(|&b| b == 0)
                .filter(|part| !part.is_empty())
                .map(|part| String::from_utf8_lossy(part).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The `(pid, ppid, start)` of each live process (zombies left out).
fn table() -> Vec<(i32, i32, u64)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
            if fields[0] == "Z" || fields[0] == "X" {
                return None;
            }
            Some((pid, fields[1].parse().ok()?, fields[19].parse().ok()?))
        })
        .collect()
}

/// The live `sleep MARKER` process, if any.
fn sleeping(marker: &str) -> Option<i32> {
    table()
        .into_iter()
        .map(|(pid, _, _)| pid)
        .find(|&pid| cmdline(pid) == ["sleep", marker])
}

/// Waits until every `markers` process runs; panics after the deadline.
async fn wait_running(markers: &[&str]) {
    let started = Instant::now();
    while markers.iter().any(|m| sleeping(m).is_none()) {
        assert!(
            started.elapsed() < DEADLINE,
            "not all of {markers:?} started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until no `(pid, start)` of `processes` runs any more; panics naming the survivors.
async fn wait_gone(processes: &[(i32, u64)], what: &str) {
    let started = Instant::now();
    loop {
        let live = table();
        let survivors: Vec<(i32, String)> = processes
            .iter()
            .filter(|(pid, start)| live.iter().any(|(p, _, s)| p == pid && s == start))
            .map(|(pid, _)| (*pid, cmdline(*pid).join(" ").chars().take(60).collect()))
            .collect();
        if survivors.is_empty() {
            return;
        }
        if started.elapsed() > DEADLINE {
            for (pid, _) in &survivors {
                let _ = std::process::Command::new("kill")
                    .args(["-9", &pid.to_string()])
                    .status();
            }
            panic!("{what}: still running after the CLI ended: {survivors:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The `(pid, start)` of each marked process (they run: see [`wait_running`]).
fn identities(markers: &[&str]) -> Vec<(i32, u64)> {
    let live = table();
    markers
        .iter()
        .filter_map(|m| sleeping(m))
        .filter_map(|pid| {
            live.iter()
                .find(|(p, _, _)| *p == pid)
                .map(|(p, _, s)| (*p, *s))
        })
        .collect()
}

/// A shell command leaving a grandchild that escaped with `setsid` and was orphaned (its
/// parent subshell has exited), then sleeping itself.
fn with_escapee(escapee: &str, main: &str) -> String {
    format!("(setsid sleep {escapee} &); sleep {main}")
}

fn hung_mcp_config(command: &str) -> String {
    format!(
        "[[mcp_servers]]\nname = \"hung\"\ncommand = \"bash\"\nargs = [\"-c\", {}]\n\
         startup_timeout_secs = 3600\n",
        toml_string(command)
    )
}

fn toml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn configure(cli: &Cli, config: &str) {
    std::fs::create_dir_all(cli.home.path()).unwrap();
    std::fs::write(cli.home.path().join("config.toml"), config).unwrap();
}

/// `tools batch -` with stdin and stdout piped.
fn batch(cli: &Cli) -> tokio::process::Child {
    cli.command()
        .args(["tools", "batch", "-", "--approve"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn signal(child: &tokio::process::Child, name: &str) {
    let pid = child.id().unwrap().to_string();
    let status = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid])
        .status()
        .unwrap();
    assert!(status.success());
}

async fn exit_code(mut child: tokio::process::Child) -> Option<i32> {
    tokio::time::timeout(DEADLINE, child.wait())
        .await
        .expect("the CLI ends on the signal")
        .unwrap()
        .code()
}

#[tokio::test(flavor = "multi_thread")]
async fn int_term_and_hup_end_a_hung_mcp_server_exec_and_process_children_and_their_escapees() {
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        // A hung MCP server: the batch waits for it to start.
        let (escapee, server) = (marker(), marker());
        let cli = Cli::new();
        configure(&cli, &hung_mcp_config(&with_escapee(&escapee, &server)));
        let child = batch(&cli);
        wait_running(&[&escapee, &server]).await;
        let processes = identities(&[&escapee, &server]);
        signal(&child, name);
        assert_eq!(exit_code(child).await, Some(128 + number), "SIG{name}");
        wait_gone(&processes, &format!("SIG{name}, hung MCP server")).await;

        // A `process start` child and an `exec` child still running.
        let markers: Vec<String> = (0..4).map(|_| marker()).collect();
        let cli = Cli::new();
        let mut child = batch(&cli);
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        let start = json!({"name": "process", "arguments": {
            "action": "start", "command": with_escapee(&markers[0], &markers[1])}});
        stdin
            .write_all(format!("{start}\n").as_bytes())
            .await
            .unwrap();
        let answer = tokio::time::timeout(DEADLINE, stdout.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert!(answer.contains("\"ok\":true"), "{answer}");
        let exec = json!({"name": "exec", "arguments": {
            "command": with_escapee(&markers[2], &markers[3]), "timeout": 600}});
        stdin
            .write_all(format!("{exec}\n").as_bytes())
            .await
            .unwrap();
        let marked: Vec<&str> = markers.iter().map(String::as_str).collect();
        wait_running(&marked).await;
        let processes = identities(&marked);
        signal(&child, name);
        assert_eq!(exit_code(child).await, Some(128 + number), "SIG{name}");
        wait_gone(&processes, &format!("SIG{name}, exec and process")).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_of_the_cli_ends_a_hung_mcp_server_and_its_child() {
    let (inner, server) = (marker(), marker());
    let cli = Cli::new();
    let command = format!("sleep {inner} & sleep {server}; wait");
    configure(&cli, &hung_mcp_config(&command));
    let child = batch(&cli);
    wait_running(&[&inner, &server]).await;
    let processes = identities(&[&inner, &server]);
    signal(&child, "KILL");
    assert_eq!(exit_code(child).await, None, "killed by SIGKILL");
    wait_gone(&processes, "kill -9, hung MCP server").await;
}

/// Serves one small page to every connection.
async fn page_server() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0u8; 4096];
                let _ = tokio::io::AsyncReadExt::read(&mut stream, &mut request).await;
                let body = "<html><body><h1>children</h1></body></html>";
                let reply = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_of_the_cli_ends_its_chromium() {
    let port = page_server().await;
    let cli = Cli::new();
    configure(
        &cli,
        &format!("allow_local_hosts = [\"127.0.0.1:{port}\"]\n"),
    );
    let mut child = batch(&cli);
    let cli_pid = i32::try_from(child.id().unwrap()).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let open = json!({"name": "browser", "arguments": {
        "action": "open", "url": format!("http://127.0.0.1:{port}/")}});
    stdin
        .write_all(format!("{open}\n").as_bytes())
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(90), stdout.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(answer.contains("\"ok\":true"), "{answer}");
    // Chromium and everything under it (zygotes, renderers, the GPU process).
    let live = table();
    let mut browser: Vec<(i32, u64)> = Vec::new();
    let mut parents = vec![cli_pid];
    while let Some(parent) = parents.pop() {
        for (pid, ppid, start) in &live {
            if *ppid == parent {
                parents.push(*pid);
                browser.push((*pid, *start));
            }
        }
    }
    let cli_exe = env!("CARGO_BIN_EXE_hearth-cli");
    browser.retain(|(pid, _)| cmdline(*pid).first().map(String::as_str) != Some(cli_exe));
    // Chromium rewrites its command line into one string (argv[0] holds every switch).
    assert!(
        browser.iter().any(|(pid, _)| cmdline(*pid)
            .iter()
            .any(|arg| arg.contains("--user-data-dir"))),
        "no Chromium under the CLI: {:?}",
        browser
            .iter()
            .map(|(pid, _)| cmdline(*pid))
            .collect::<Vec<_>>()
    );
    signal(&child, "KILL");
    assert_eq!(exit_code(child).await, None, "killed by SIGKILL");
    wait_gone(&browser, "kill -9, Chromium").await;
}
