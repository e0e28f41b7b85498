//! Servers that crash, hang, never answer, flood stderr, change their tools or cannot be
//! reached: each gets a clear status or error, the others are unaffected, nothing is orphaned.

use super::*;
use hearth_tools::{Dialect, ErrorKind, Registry};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_in_a_call_is_restarted_and_the_call_retried_once() {
    let rig = Rig::start(&[faulty("faulty")]).await;
    assert_eq!(
        rig.state("faulty"),
        State::Ready,
        "{:?}",
        rig.status("faulty")
    );
    let flag = rig.dir.path().join("crashed");
    let answer = rig
        .call(
            "mcp__faulty__crash_once",
            json!({"flag_file": flag.display().to_string()}),
        )
        .await
        .unwrap();
    assert!(text(&answer).contains("survived the restart"), "{answer}");
    assert!(flag.exists());
    let status = rig.status("faulty");
    assert_eq!((status.state, status.restarts), (State::Ready, 1));
    assert!(
        status
            .log_tail
            .iter()
            .any(|l| l.contains("retrying after the restart")),
        "{:?}",
        status.log_tail
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_never_answers_fails_after_its_timeout_and_others_are_unaffected() {
    let mut silent = faulty("silent");
    silent.args.push("--silent".into());
    silent.startup_timeout_secs = 2;
    let started = std::time::Instant::now();
    let rig = Rig::start(&[silent, time_server()]).await;
    let State::Failed { reason } = rig.state("silent") else {
        panic!("{:?}", rig.status("silent"));
    };
    assert!(reason.contains("no answer within 2 s"), "{reason}");
    // Well under the default 30 s start-up timeout, with room for a loaded machine.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(rig.state("time"), State::Ready);
    assert!(rig.manager.tool_infos().iter().all(|t| t.server == "time"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hanging_call_times_out_and_a_stopped_one_is_cancelled_on_the_server() {
    let mut server = faulty("faulty");
    server.call_timeout_secs = 1;
    let rig = Rig::start(&[server]).await;
    let error = rig
        .call("mcp__faulty__hang", json!({"seconds": 30}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Timeout, "{error:?}");
    assert!(
        error.message.contains("no answer or progress for 1 s"),
        "{error:?}"
    );
    let cancelled = rig
        .call("mcp__faulty__hang_cancelled", json!({"within": 0.9}))
        .await
        .unwrap();
    assert_eq!(
        cancelled["structured"]["result"], true,
        "the timeout sent notifications/cancelled: {cancelled}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_turn_sends_notifications_cancelled() {
    let rig = Rig::start(&[faulty("faulty")]).await;
    let mut registry = Registry::new(Dialect::Hearth);
    for tool in rig.manager.registry_tools() {
        registry.register_dyn(tool).unwrap();
    }
    let ctx = rig.ctx();
    let cancel = ctx.cancel.clone();
    let call = registry.dispatch("mcp__faulty__hang", r#"{"seconds": 60}"#, &ctx);
    let (result, ()) = tokio::join!(call, async {
        let started = rig
            .call("mcp__faulty__hang_started", json!({"within": 10}))
            .await
            .unwrap();
        assert_eq!(started["structured"]["result"], true);
        cancel.cancel();
    });
    assert_eq!(result.unwrap_err().kind, ErrorKind::Cancelled);
    let cancelled = rig
        .call("mcp__faulty__hang_cancelled", json!({"within": 10}))
        .await
        .unwrap();
    assert_eq!(cancelled["structured"]["result"], true, "{cancelled}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_flooding_stderr_keeps_working_and_its_log_stays_bounded() {
    let rig = Rig::start(&[faulty("faulty")]).await;
    let answer = rig
        .call("mcp__faulty__flood", json!({"megabytes": 3}))
        .await
        .unwrap();
    assert!(text(&answer).contains("flooded"));
    let status = rig.status("faulty");
    assert!(status.log_path.with_extension("log.1").exists());
    assert!(std::fs::metadata(&status.log_path).unwrap().len() <= hearth_mcp::MAX_LOG_BYTES + 4096);
    assert!(status.log_tail.len() <= hearth_mcp::TAIL_LINES);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_too_large_to_read_is_a_too_large_error_at_once() {
    let rig = Rig::start(&[faulty("faulty")]).await;
    let megabytes = hearth_mcp::MAX_ANSWER_BYTES / (1024 * 1024) + 1;
    let started = std::time::Instant::now();
    let error = rig
        .call("mcp__faulty__huge", json!({"megabytes": megabytes}))
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert_eq!(error.kind, ErrorKind::TooLarge, "{error:?}");
    assert!(
        error.message.contains("more than the 16 MiB Hearth reads"),
        "{error:?}"
    );
    // At once, not after the 60 s call timeout (a debug build on a busy machine included).
    assert!(took < Duration::from_secs(20), "took {took:?}");
    // The connection goes on: the next answer (under the limit, the text being sent twice:
    // as content and as structuredContent) is read as usual.
    let half = megabytes / 2 - 1;
    let below = rig
        .call("mcp__faulty__huge", json!({"megabytes": half}))
        .await
        .unwrap();
    assert_eq!(text(&below).len(), half * 1024 * 1024);
    let status = rig.status("faulty");
    assert_eq!((status.state, status.restarts), (State::Ready, 0));
    assert!(
        status
            .log_tail
            .iter()
            .any(|l| l.contains("bytes was dropped: more than the 16 MiB")),
        "{:?}",
        status.log_tail
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_list_changed_refreshes_the_tools() {
    let rig = Rig::start(&[faulty("faulty")]).await;
    let names = |m: &McpManager| {
        m.tool_infos()
            .into_iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
    };
    assert!(!names(&rig.manager).contains(&"mcp__faulty__later".to_string()));
    rig.call("mcp__faulty__add_tool", json!({})).await.unwrap();
    assert!(
        rig.manager
            .wait_until(WAIT, |m| names(m)
                .contains(&"mcp__faulty__later".to_string()))
            .await,
        "{:?}",
        rig.status("faulty")
    );
    let later = rig.call("mcp__faulty__later", json!({})).await.unwrap();
    assert!(text(&later).contains("new tool"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_command_a_refused_port_and_an_unreachable_host_each_fail_clearly() {
    let missing = McpServerSettings::stdio("missing", "/nonexistent/hearth-mcp-server", &[]);
    let refused = McpServerSettings::http("refused", "http://127.0.0.1:9/mcp");
    let mut unreachable = McpServerSettings::http("unreachable", "http://192.0.2.1:80/mcp");
    unreachable.startup_timeout_secs = 2;
    let mut bad = McpServerSettings::http("bad", "ftp://example.com");
    bad.enabled = true;
    let rig = Rig::start(&[missing, refused, unreachable, bad]).await;
    let reason = |name: &str| match rig.state(name) {
        State::Failed { reason } => reason,
        other => panic!("{name}: {other:?}"),
    };
    assert!(
        reason("missing").contains("cannot start `/nonexistent/hearth-mcp-server`"),
        "{}",
        reason("missing")
    );
    assert!(
        reason("refused").contains("cannot connect to http://127.0.0.1:9/mcp"),
        "{}",
        reason("refused")
    );
    let unreachable = reason("unreachable");
    assert!(
        unreachable.contains("no answer within 2 s")
            || unreachable.contains("cannot connect to http://192.0.2.1:80/mcp"),
        "{unreachable}"
    );
    assert!(
        reason("bad").contains("must start with http:// or https://"),
        "{}",
        reason("bad")
    );
    // A tool of a server that failed is told the server's failure, not "no tool named …".
    let error = rig.call("mcp__missing__x", json!({})).await.unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unavailable, "{error:?}");
    assert!(
        error
            .message
            .contains("MCP server `missing` is unavailable: it failed: cannot start"),
        "{error:?}"
    );
    let error = rig.call("mcp__nobody__x", json!({})).await.unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread")]
async fn no_server_or_child_outlives_the_shutdown() {
    let marker = format!("hearth-orphan-{}", std::process::id());
    let mut server = faulty("faulty");
    server.args.push(marker.clone());
    let rig = Rig::start(&[server]).await;
    let child = rig
        .call("mcp__faulty__spawn_child", json!({}))
        .await
        .unwrap();
    let child_pid: i32 = text(&child).trim().parse().unwrap();
    assert_eq!(processes_with(&marker).len(), 1, "the server runs");
    assert!(std::path::Path::new(&format!("/proc/{child_pid}")).exists());
    rig.manager.shutdown().await;
    assert_eq!(
        processes_with(&marker),
        Vec::<u32>::new(),
        "server left running"
    );
    // SIGKILL went to the process group; its delivery is asynchronous.
    let alive = || {
        let stat = std::fs::read_to_string(format!("/proc/{child_pid}/stat")).unwrap_or_default();
        !stat.is_empty() && !stat.contains(") Z")
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while alive() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!alive(), "child {child_pid} orphaned");
}
