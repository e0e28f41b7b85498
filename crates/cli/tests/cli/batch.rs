//! `tools batch`: many calls in one process and one session, one JSON line each, from a file
//! (JSON array or JSON lines) or from stdin line by line.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::*;

fn lines(out: &Output) -> Vec<Value> {
    text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_json_array_runs_every_call_and_reports_each_failure_in_its_place() {
    let cli = Cli::new();
    let file = cli.home.path().join("calls.json");
    std::fs::write(
        &file,
        r#"[
            {"name": "calculator", "arguments": {"action": "evaluate", "expression": "2^10"}},
            {"name": "no_such_tool", "arguments": {}},
            {"name": "calculator", "arguments": {"action": "evaluate", "expression": "1/0"}},
            {"nam": "calculator"},
            {"name": "calculator", "arguments": "{\"action\":\"evaluate\",\"expression\":\"6*7\"}"}
        ]"#,
    )
    .unwrap();
    let out = cli.run(&["tools", "batch", file.to_str().unwrap()]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines = lines(&out);
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0]["name"], "calculator");
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["result"]["result"], 1024, "{}", lines[0]);
    assert_eq!(lines[1]["name"], "no_such_tool");
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["error"]["kind"], "not_found", "{}", lines[1]);
    assert_eq!(lines[2]["ok"], false);
    assert_eq!(
        lines[2]["error"]["kind"], "invalid_arguments",
        "{}",
        lines[2]
    );
    assert_eq!(lines[3]["name"], Value::Null);
    assert_eq!(lines[3]["error"]["kind"], "invalid_arguments");
    let message = lines[3]["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("entry 4 is not a call"), "{message}");
    assert_eq!(lines[4]["ok"], true, "the batch went on: {}", lines[4]);
    assert_eq!(lines[4]["result"]["result"], 42);
}

#[tokio::test(flavor = "multi_thread")]
async fn json_lines_skip_blank_lines_name_a_malformed_one_and_pass_when_all_pass() {
    let cli = Cli::new();
    let file = cli.home.path().join("calls.jsonl");
    std::fs::write(
        &file,
        "{\"name\":\"calculator\",\"arguments\":{\"action\":\"evaluate\",\"expression\":\"1+1\"}}\n\
         \n\
         {not json\n\
         {\"name\":\"calculator\",\"arguments\":{\"action\":\"evaluate\",\"expression\":\"3*3\"}}\n",
    )
    .unwrap();
    let out = cli.run(&["tools", "batch", file.to_str().unwrap()]).await;
    assert_eq!(out.status.code(), Some(1));
    let answers = lines(&out);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[0]["result"]["result"], 2);
    let message = answers[1]["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("line 3 is not a call"), "{message}");
    assert_eq!(answers[2]["result"]["result"], 9);

    std::fs::write(
        &file,
        "{\"name\":\"calculator\",\"arguments\":{\"action\":\"evaluate\",\"expression\":\"2+2\"}}\n",
    )
    .unwrap();
    let out = cli.run(&["tools", "batch", file.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(lines(&out).len(), 1);

    std::fs::write(&file, "[{\"name\": \"calculator\"").unwrap();
    let out = cli.run(&["tools", "batch", file.to_str().unwrap()]).await;
    assert_one_line_error(&out, "the batch is not a JSON array").await;
    assert!(out.stdout.is_empty(), "nothing ran");
    let out = cli.run(&["tools", "batch", "/no/such/calls.json"]).await;
    assert_one_line_error(&out, "cannot read /no/such/calls.json").await;
}

/// Writes one line to the batch's stdin and reads its answer, with stdin still open.
async fn step(
    stdin: &mut tokio::process::ChildStdin,
    stdout: &mut tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    call: &str,
) -> Value {
    stdin
        .write_all(format!("{call}\n").as_bytes())
        .await
        .unwrap();
    stdin.flush().await.unwrap();
    let line = tokio::time::timeout(Duration::from_secs(60), stdout.next_line())
        .await
        .expect("an answer before the next line is written")
        .unwrap()
        .expect("a line");
    serde_json::from_str(&line).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn stdin_answers_each_line_before_the_next_is_written_in_one_session() {
    let cli = Cli::new();
    let mut child = cli
        .command()
        .args(["tools", "batch", "-", "--approve"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();

    let started = step(
        &mut stdin,
        &mut stdout,
        r#"{"name": "process", "arguments": {"action": "start", "command": "sleep 60"}}"#,
    )
    .await;
    assert_eq!(started["ok"], true, "{started}");
    let id = started["result"]["process_id"]
        .as_str()
        .unwrap()
        .to_string();

    // The next call is built from the answer: the process it started is still there, in the
    // same process and session.
    let listed = step(
        &mut stdin,
        &mut stdout,
        r#"{"name": "process", "arguments": {"action": "list"}}"#,
    )
    .await;
    let processes = listed["result"]["processes"].as_array().unwrap();
    assert!(
        processes.iter().any(|p| p["process_id"] == id.as_str()),
        "{listed}"
    );
    let malformed = step(&mut stdin, &mut stdout, r#"{"name": 7}"#).await;
    assert_eq!(malformed["error"]["kind"], "invalid_arguments");
    assert!(malformed["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("line 3 is not a call"));
    let stopped = step(
        &mut stdin,
        &mut stdout,
        &json!({"name": "process", "arguments": {"action": "stop", "process_id": id}}).to_string(),
    )
    .await;
    assert_eq!(stopped["ok"], true, "{stopped}");

    drop(stdin);
    assert_eq!(stdout.next_line().await.unwrap(), None);
    let status = child.wait().await.unwrap();
    assert_eq!(status.code(), Some(1), "the malformed line failed");
}

#[tokio::test(flavor = "multi_thread")]
async fn stdin_carries_the_calls_so_nothing_is_asked_on_it() {
    let cli = Cli::new();
    let mut child = cli
        .command()
        .args(["tools", "batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"name\":\"exec\",\"arguments\":{\"command\":\"true\"}}\ny\n")
        .await
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().await.unwrap();
    let lines = lines(&out);
    assert_eq!(lines.len(), 2, "the 'y' is a line of the batch: {lines:?}");
    assert_eq!(lines[0]["error"]["kind"], "denied_by_user", "{}", lines[0]);
    assert!(lines[0]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("cli (no terminal)"));
    assert_eq!(lines[1]["error"]["kind"], "invalid_arguments");
}
