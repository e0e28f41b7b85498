//! `hearth-cli mcp login NAME` / `mcp logout NAME`: OAuth sign-in to a URL server (the
//! authorization page opened in the browser, its address also printed for a terminal without
//! one; the tokens kept in the keychain) and signing out (the tokens deleted).

use std::future::Future;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::anyhow;
use hearth_core::{KeyringStore, SecretStore};
use hearth_mcp::oauth::{Browser, OAuthEnv, SystemBrowser};
use hearth_mcp::{McpManager, State};
use hearth_protocol::McpServerSettings;

use crate::pipe::outln;
use crate::setup::{open_home, start_mcp};

/// Prints the authorization address, then tries the system browser.
struct TerminalBrowser;

impl Browser for TerminalBrowser {
    fn open<'a>(
        &'a self,
        url: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>> {
        Box::pin(async move {
            eprintln!("Sign in on this page (opening it in your browser):\n  {url}");
            if let Err(error) = SystemBrowser.open(url).await {
                eprintln!("({error}; open the address yourself)");
            }
            Ok(())
        })
    }
}

/// The URL server `name` of the settings, switched on for this command.
fn http_server(settings: &[McpServerSettings], name: &str) -> anyhow::Result<McpServerSettings> {
    let server = settings
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| anyhow!("no MCP server named `{name}`"))?;
    if server.url.is_none() {
        return Err(anyhow!(
            "MCP server `{name}` is a program, not a URL server: it has nothing to sign in to"
        ));
    }
    Ok(McpServerSettings {
        enabled: true,
        ..server.clone()
    })
}

pub async fn login(name: &str) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let server = http_server(&home.settings.mcp_servers, name)?;
    let manager = start_mcp(&home, &[server]).await;
    manager.set_oauth(OAuthEnv {
        secrets: Arc::new(KeyringStore::new()),
        browser: Arc::new(TerminalBrowser),
    });
    let keychain = KeyringStore::new();
    let secret = |account: &str| keychain.get(account).ok().flatten();
    let signed = manager.sign_in(name, &secret).await;
    let result = match signed {
        Ok(()) => report(&manager, name).await,
        Err(error) => Err(anyhow!("{error}")),
    };
    manager.shutdown().await;
    result
}

async fn report(manager: &McpManager, name: &str) -> anyhow::Result<ExitCode> {
    manager.settled().await;
    let status = manager
        .statuses()
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("no MCP server named `{name}`"))?;
    match status.state {
        State::Ready => {
            outln!("signed in to {name} ({} tools)", status.tools);
            Ok(ExitCode::SUCCESS)
        }
        State::Failed { reason } => Err(anyhow!("signed in, but `{name}` failed: {reason}")),
        _ => Err(anyhow!("signed in, but `{name}` still refuses the tokens")),
    }
}

pub fn logout(name: &str) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    http_server(&home.settings.mcp_servers, name)?;
    let env = OAuthEnv::default();
    hearth_mcp::oauth::sign_out(name, &env)?;
    outln!("signed out of {name}");
    Ok(ExitCode::SUCCESS)
}
