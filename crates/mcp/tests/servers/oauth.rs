//! OAuth sign-in against a real MCP server (the Python SDK) guarded by an authorization server
//! speaking the real wire format (`fixtures/oauth_server.py`): a server asking for sign-in is
//! shown so and waits; signing in (the page followed headlessly, the redirect taken on the
//! loopback port) registers, authorizes with PKCE and keeps the tokens; a later start uses
//! them; a refused token is refreshed; a refused refresh asks for sign-in again; signing out
//! forgets them.

use std::path::Path;
use std::sync::Arc;

use hearth_core::SecretStore;
use hearth_mcp::oauth::{tokens_account, Browser, FollowRedirects, MemorySecrets, OAuthEnv};
use hearth_mcp::{McpManager, State};
use hearth_protocol::McpServerSettings;
use serde_json::{json, Value};
use tokio::io::AsyncBufReadExt;

use super::{python, text, Rig, WAIT};

/// The Python fixture `script` on a free port (it prints `PORT <n>`), with its base address.
pub(crate) async fn python_server(script: &str) -> (tokio::process::Child, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/servers/fixtures")
        .join(script);
    let mut child = tokio::process::Command::new(python())
        .arg(script)
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next_line().await.unwrap().unwrap();
    let port = first.strip_prefix("PORT ").unwrap().to_string();
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, format!("http://127.0.0.1:{port}"))
}

/// The guarded server on a free port, with its base address.
async fn guarded_server() -> (tokio::process::Child, String) {
    python_server("oauth_server.py").await
}

async fn journal(base: &str) -> Vec<Value> {
    let journal: Value = reqwest::get(format!("{base}/journal"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    journal.as_array().unwrap().clone()
}

fn events<'a>(journal: &'a [Value], event: &str) -> Vec<&'a Value> {
    journal.iter().filter(|e| e["event"] == event).collect()
}

/// A manager of the guarded server, its tokens in `secrets`, pages followed headlessly.
async fn rig(base: &str, secrets: &Arc<MemorySecrets>) -> Rig {
    rig_with(base, secrets, Arc::new(FollowRedirects)).await
}

async fn rig_with(base: &str, secrets: &Arc<MemorySecrets>, browser: Arc<dyn Browser>) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let server = McpServerSettings::http("notes", &format!("{base}/mcp"));
    let manager = McpManager::new(&[server], &|_| None, &dir.path().join("logs"));
    manager.set_oauth(OAuthEnv {
        secrets: secrets.clone(),
        browser,
    });
    manager.start_background();
    manager.settled().await;
    Rig { dir, manager }
}

async fn ready(manager: &McpManager) -> bool {
    manager
        .wait_until(WAIT, |m| {
            m.statuses()[0].state == State::Ready && !m.tool_infos().is_empty()
        })
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn signing_in_registers_authorizes_with_pkce_and_keeps_the_tokens() {
    let (_child, base) = guarded_server().await;
    let secrets = Arc::new(MemorySecrets::default());
    let rig = rig(&base, &secrets).await;
    assert_eq!(
        rig.state("notes"),
        State::NeedsSignIn,
        "{:?}",
        rig.status("notes")
    );
    let refused = rig.call("mcp__notes__whoami", json!({})).await.unwrap_err();
    // The server's tools are known by name before sign-in: the call says what to do.
    assert!(
        refused.to_string().contains("needs you to sign in"),
        "{refused}"
    );
    assert!(
        journal(&base).await.is_empty(),
        "nothing is registered before the user signs in"
    );

    rig.manager.sign_in("notes", &|_| None).await.unwrap();
    assert!(ready(&rig.manager).await, "{:?}", rig.status("notes"));
    let answer = rig.call("mcp__notes__whoami", json!({})).await.unwrap();
    assert_eq!(text(&answer), "a signed-in client");
    let seen = journal(&base).await;
    assert_eq!(events(&seen, "register")[0]["client_name"], "Hearth");
    let authorize = events(&seen, "authorize");
    assert_eq!(authorize.len(), 1, "{seen:?}");
    assert_eq!(
        authorize[0]["ok"], true,
        "PKCE S256 and the registered redirect"
    );
    assert_eq!(authorize[0]["scope"], "notes", "the scope of the challenge");
    let redirect = authorize[0]["redirect_uri"].as_str().unwrap();
    assert!(redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"));
    let stored = secrets.get(&tokens_account("notes")).unwrap().unwrap();
    assert!(stored.contains("access_token") && stored.contains("refresh_token"));

    // Another start (a restart of Hearth) uses the stored tokens: no new authorization.
    rig.manager.shutdown().await;
    let again = self::rig(&base, &secrets).await;
    assert_eq!(
        again.state("notes"),
        State::Ready,
        "{:?}",
        again.status("notes")
    );
    assert_eq!(events(&journal(&base).await, "authorize").len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_token_is_refreshed_and_a_refused_refresh_asks_for_sign_in_again() {
    let (_child, base) = guarded_server().await;
    let secrets = Arc::new(MemorySecrets::default());
    let rig = rig(&base, &secrets).await;
    rig.manager.sign_in("notes", &|_| None).await.unwrap();
    assert!(ready(&rig.manager).await, "{:?}", rig.status("notes"));
    let http = reqwest::Client::new();

    // The server forgets the access token mid-session: refreshed, the call goes through.
    http.post(format!("{base}/expire-access"))
        .send()
        .await
        .unwrap();
    let answer = rig.call("mcp__notes__whoami", json!({})).await.unwrap();
    assert_eq!(text(&answer), "a signed-in client");
    let grants: Vec<_> = events(&journal(&base).await, "token")
        .iter()
        .map(|e| e["grant_type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(grants, ["authorization_code", "refresh_token"]);

    // The refresh token is refused too: the server needs a new sign-in.
    http.post(format!("{base}/expire-all"))
        .send()
        .await
        .unwrap();
    let refused = rig.call("mcp__notes__whoami", json!({})).await.unwrap_err();
    assert!(refused.to_string().contains("sign in"), "{refused}");
    assert!(
        rig.manager
            .wait_until(WAIT, |m| m.statuses()[0].state == State::NeedsSignIn)
            .await,
        "{:?}",
        rig.status("notes")
    );
    rig.manager.sign_in("notes", &|_| None).await.unwrap();
    assert!(ready(&rig.manager).await, "{:?}", rig.status("notes"));

    // Signing out forgets the tokens; the server asks again.
    rig.manager.sign_out("notes", &|_| None).unwrap();
    assert_eq!(secrets.get(&tokens_account("notes")).unwrap(), None);
    assert!(
        rig.manager
            .wait_until(WAIT, |m| m.statuses()[0].state == State::NeedsSignIn)
            .await
    );
}

/// A browser that cannot be started.
struct NoBrowser;

impl Browser for NoBrowser {
    fn open<'a>(&'a self, _url: &'a str) -> futures::future::BoxFuture<'a, Result<(), String>> {
        Box::pin(async { Err("no display".to_string()) })
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_browser_that_cannot_open_fails_the_sign_in_with_the_reason() {
    let (_child, base) = guarded_server().await;
    let secrets = Arc::new(MemorySecrets::default());
    let rig = rig_with(&base, &secrets, Arc::new(NoBrowser)).await;
    let error = rig.manager.sign_in("notes", &|_| None).await.unwrap_err();
    assert!(error.to_string().contains("no display"), "{error}");
    assert_eq!(rig.state("notes"), State::NeedsSignIn);
    assert!(rig
        .status("notes")
        .log_tail
        .iter()
        .any(|l| l.contains("no display")));
    let stdio = rig.manager.sign_in("nobody", &|_| None).await.unwrap_err();
    assert!(stdio.to_string().contains("nobody"), "{stdio}");
}
