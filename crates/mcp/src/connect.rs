//! Connecting to one server: the stdio child (its own process group, stderr into the server's
//! log, the login shell's `PATH`, stdout read as [`crate::stdio`] says) or the streamable HTTP endpoint (custom headers, OAuth tokens;
//! the older HTTP+SSE transport when even `initialize` is refused), then the
//! lifecycle — `server/discover` for 2026-07-28 servers, `initialize` at 2025-11-25 otherwise
//! (the server may answer an older version such as 2025-06-18).

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationCapability,
    FormElicitationCapability, Implementation, ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RunningService,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, RoleClient};
use tokio::sync::Notify;

use crate::config::{ServerSpec, Transport};
use crate::elicitation::Asking;
use crate::log::ServerLog;
use crate::oauth::{authorized_client, OAuthEnv};
use crate::path::server_path;
use crate::sandbox::server_sandbox;
use crate::stdio::StdioTransport;

/// A connected server.
pub(crate) type Client = RunningService<RoleClient, Handler>;

/// Answers the server: who Hearth is (offering form elicitation), a tool list change wakes
/// the supervisor, and an elicitation is asked of the person behind the call in progress.
#[derive(Clone)]
pub(crate) struct Handler {
    pub tools_changed: Arc<Notify>,
    pub server: String,
    pub asking: Arc<Asking>,
    pub log: ServerLog,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut elicitation = ElicitationCapability::new();
        elicitation.form = Some(FormElicitationCapability::new());
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(elicitation);
        ClientConfig::new(
            capabilities,
            Implementation::new("hearth", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(crate::elicitation::answer(&self.server, &self.asking, &self.log, request).await)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.tools_changed.notify_one();
    }
}

/// The lifecycle Hearth asks for: the current revision first, then the newest legacy one.
fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    }
}

/// A connection.
pub(crate) struct Connected {
    pub client: Client,
}

/// Starts or reaches `spec`'s server and runs the lifecycle handshake (no timeout here: the
/// caller bounds it); `on_pid` learns a stdio child's process id as soon as it is spawned. A
/// server that answers `server/discover` with something unusable gets a second connection with
/// the plain `initialize` handshake.
pub(crate) async fn connect(
    spec: &ServerSpec,
    handler: Handler,
    log: &ServerLog,
    oauth: &OAuthEnv,
    on_pid: &(dyn Fn(Option<u32>) + Sync),
) -> Result<Connected, Failure> {
    let first_pid = std::sync::Mutex::new(None);
    let record = |pid: Option<u32>| {
        if let Ok(mut first) = first_pid.lock() {
            *first = pid;
        }
        on_pid(pid);
    };
    match connect_with(spec, handler.clone(), log, oauth, &record, lifecycle()).await {
        Ok(connected) => Ok(connected),
        Err(Failure::Handshake(reason)) => {
            log.line(&format!(
                "hearth: {reason}; trying the initialize handshake"
            ));
            if let Some(pid) = first_pid.lock().ok().and_then(|pid| *pid) {
                crate::server::kill_process_group(pid);
            }
            connect_with(
                spec,
                handler,
                log,
                oauth,
                on_pid,
                ClientLifecycleMode::Initialize,
            )
            .await
        }
        Err(failure) => Err(failure),
    }
}

/// Why a connection attempt failed: before the handshake (spawn, bad header), in it, or
/// because the server wants an OAuth sign-in (its `WWW-Authenticate` challenge, if any).
pub(crate) enum Failure {
    Setup(String),
    Handshake(String),
    SignIn(Option<String>),
}

impl Failure {
    pub fn into_reason(self) -> String {
        match self {
            Failure::Setup(reason) | Failure::Handshake(reason) => reason,
            Failure::SignIn(_) => "the server asks you to sign in".to_string(),
        }
    }
}

async fn connect_with(
    spec: &ServerSpec,
    handler: Handler,
    log: &ServerLog,
    oauth: &OAuthEnv,
    on_pid: &(dyn Fn(Option<u32>) + Sync),
    lifecycle: ClientLifecycleMode,
) -> Result<Connected, Failure> {
    match &spec.transport {
        Transport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            // The login shell is asked once, off the runtime's threads (servers start together).
            let path = tokio::task::spawn_blocking(server_path)
                .await
                .map_err(|e| Failure::Setup(format!("cannot find the login shell's PATH: {e}")))?;
            // In the sandbox and a process group of its own (an `npx` or `uvx` server has
            // children of its own), recorded so that it ends with Hearth however Hearth ends.
            let sandbox = server_sandbox(&spec.name, cwd.as_deref()).map_err(Failure::Setup)?;
            let mut cmd = sandbox.tokio_command(command);
            cmd.args(args).env("PATH", path).envs(env);
            if let Some(cwd) = cwd {
                cmd.current_dir(cwd);
            }
            cmd.stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .kill_on_drop(true);
            let (mut child, isolation) = hearth_sandbox::spawn(&sandbox, cmd)
                .await
                .map_err(|e| Failure::Setup(format!("cannot start `{command}`: {e}")))?;
            log.line(&format!(
                "hearth: sandbox {}{}",
                isolation.kind,
                isolation
                    .reason
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ));
            on_pid(child.id());
            if let Some(stderr) = child.stderr.take() {
                log.drain(stderr);
            }
            let transport = StdioTransport::new(child, log.clone())
                .ok_or_else(|| Failure::Setup(format!("`{command}` has no stdin or stdout")))?;
            let client = handler
                .serve_with_lifecycle(transport, lifecycle)
                .await
                .map_err(|e| Failure::Handshake(format!("the server did not start: {e}")))?;
            Ok(Connected { client })
        }
        Transport::Http { url, headers, .. } => {
            let config = http_config(url, headers).map_err(Failure::Setup)?;
            let http = authorized_client(&spec.name, url, oauth)
                .await
                .map_err(Failure::Setup)?;
            let transport = StreamableHttpClientTransport::with_client(http, config);
            let legacy = matches!(lifecycle, ClientLifecycleMode::Initialize);
            match handler
                .clone()
                .serve_with_lifecycle(transport, lifecycle)
                .await
            {
                Ok(client) => Ok(Connected { client }),
                Err(e) if e.is_authorization_required() || e.auth_challenge().is_some() => {
                    let challenge = e.auth_challenge().filter(|c| !c.trim().is_empty());
                    Err(Failure::SignIn(challenge.map(str::to_string)))
                }
                // The plain `initialize` refused too: perhaps a server of the older HTTP+SSE
                // transport (its error is the streamable one's when it is not that either).
                Err(e) if legacy => match crate::sse::open(url, headers).await {
                    Ok(sse) => {
                        log.line(&format!(
                            "hearth: no streamable HTTP at {url}; using HTTP+SSE"
                        ));
                        let client = handler
                            .serve_with_lifecycle(sse, ClientLifecycleMode::Initialize)
                            .await
                            .map_err(|e| {
                                Failure::Handshake(format!(
                                    "cannot connect to {url} over HTTP+SSE: {e}"
                                ))
                            })?;
                        Ok(Connected { client })
                    }
                    Err(_) => Err(Failure::Handshake(format!("cannot connect to {url}: {e}"))),
                },
                Err(e) => Err(Failure::Handshake(format!("cannot connect to {url}: {e}"))),
            }
        }
    }
}

/// The transport settings for `url`: `Authorization: Bearer …` as the auth header, every
/// other header sent as given.
fn http_config(
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<StreamableHttpClientTransportConfig, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_string());
    let mut custom = HashMap::new();
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("authorization") {
            let token = value.strip_prefix("Bearer ").unwrap_or(value);
            config = config.auth_header(token.to_string());
            continue;
        }
        let header =
            HeaderName::from_bytes(name.as_bytes()).map_err(|e| format!("header `{name}`: {e}"))?;
        let value = HeaderValue::from_str(value).map_err(|e| format!("header `{name}`: {e}"))?;
        custom.insert(header, value);
    }
    Ok(config.custom_headers(custom))
}
