//! One server kept running: a supervisor task connects it (bounded by the start-up timeout),
//! lists its tools, refreshes them on `tools/list_changed`, and restarts it with backoff
//! (1 s doubling to 30 s) when it exits or drops its connection. Calls wait for it to be ready,
//! time out without progress, send `notifications/cancelled` when abandoned, are retried once
//! after a restart when the connection was cut under them, and go through `input_required`
//! rounds; a server that wants an OAuth sign-in waits for it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hearth_tools::{ErrorKind, ToolError};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotification,
    CancelledNotificationParam, ClientNotification, ClientRequest, JsonObject, RequestId,
    ServerNotification, ServerResult, SubscriptionFilter, Tool,
};
use rmcp::service::{Peer, PeerRequestOptions, ServiceError, Subscription};
use rmcp::RoleClient;
use tokio::sync::{watch, Notify};
use tokio_util::sync::CancellationToken;

use crate::config::{ServerSpec, Transport};
use crate::connect::{connect, Connected, Failure, Handler};
use crate::elicitation::Asking;
use crate::log::ServerLog;
use crate::mrtr::{self, MAX_ROUNDS};
use crate::oauth::SharedOAuth;
use crate::status::{ServerStatus, State};

/// First wait before a restart; doubled after each failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long a shut-down server gets to exit before its process group is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(8);

struct Inner {
    state: State,
    tools: Vec<Tool>,
    peer: Option<Peer<RoleClient>>,
    /// Counts connections: a retried call waits for a newer one.
    generation: u64,
    restarts: u32,
    protocol_version: Option<String>,
    /// The stdio child's process (group) id while it may be running.
    pid: Option<u32>,
    /// The server's last OAuth challenge (`WWW-Authenticate`), for the next sign-in.
    challenge: Option<String>,
    /// What answers the server's input requests on the current connection.
    handler: Option<Handler>,
}

pub(crate) struct Server {
    pub spec: ServerSpec,
    pub log: ServerLog,
    /// The conversations of the calls in progress, for elicitations.
    pub asking: Arc<Asking>,
    pub oauth: SharedOAuth,
    inner: Mutex<Inner>,
    changed: watch::Sender<u64>,
    /// Woken when a call finds the sign-in no longer accepted: the connection ends.
    signed_out: Notify,
    shutdown: CancellationToken,
}

impl Server {
    pub fn new(
        spec: ServerSpec,
        log: ServerLog,
        state: State,
        oauth: SharedOAuth,
        shutdown: CancellationToken,
    ) -> Server {
        Server {
            spec,
            log,
            asking: Arc::default(),
            oauth,
            inner: Mutex::new(Inner {
                state,
                tools: Vec::new(),
                peer: None,
                generation: 0,
                restarts: 0,
                protocol_version: None,
                pid: None,
                challenge: None,
                handler: None,
            }),
            changed: watch::channel(0).0,
            signed_out: Notify::new(),
            shutdown,
        }
    }

    fn update(&self, change: impl FnOnce(&mut Inner)) {
        if let Ok(mut inner) = self.inner.lock() {
            change(&mut inner);
        }
        self.changed.send_modify(|n| *n += 1);
    }

    fn read<T>(&self, read: impl FnOnce(&Inner) -> T) -> Option<T> {
        self.inner.lock().ok().map(|inner| read(&inner))
    }

    pub fn state(&self) -> State {
        self.read(|i| i.state.clone()).unwrap_or(State::Stopped)
    }

    /// The server's tools while it is ready.
    pub fn tools(&self) -> Vec<Tool> {
        self.read(|i| {
            if i.state == State::Ready {
                i.tools.clone()
            } else {
                Vec::new()
            }
        })
        .unwrap_or_default()
    }

    pub fn is_ready(&self) -> bool {
        self.state() == State::Ready
    }

    /// What the server said it offers (its capabilities, as JSON) while it is connected.
    pub fn capabilities(&self) -> Option<serde_json::Value> {
        let peer = self.read(|i| i.peer.clone()).flatten()?;
        serde_json::to_value(&peer.peer_info()?.capabilities).ok()
    }

    pub fn status(&self, offered: usize) -> ServerStatus {
        let (state, protocol_version, restarts) = self
            .read(|i| (i.state.clone(), i.protocol_version.clone(), i.restarts))
            .unwrap_or((State::Stopped, None, 0));
        ServerStatus {
            name: self.spec.name.clone(),
            state,
            tools: offered,
            protocol_version,
            restarts,
            transport: match self.spec.transport {
                Transport::Stdio { .. } => "stdio",
                Transport::Http { .. } => "http",
            },
            log_path: self.log.path().to_path_buf(),
            log_tail: self.log.tail(),
        }
    }

    /// Wakes the watchers (what the server offers changed in the settings).
    pub fn touch(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// A receiver woken on every change of state or tools.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Waits until the server is no longer starting, or `limit` passed.
    pub async fn settled(&self, limit: Duration) {
        let mut changes = self.changed.subscribe();
        let _ = tokio::time::timeout(limit, async {
            while !self.state().is_settled() {
                if changes.changed().await.is_err() {
                    return;
                }
            }
        })
        .await;
    }

    /// Keeps the server running until Hearth shuts down.
    pub async fn supervise(self: Arc<Self>) {
        let mut backoff = FIRST_BACKOFF;
        loop {
            // A retry stays `failed` (with the last reason) until it is ready.
            if !matches!(self.state(), State::Failed { .. }) {
                self.update(|i| i.state = State::Starting);
            }
            let tools_changed = Arc::new(Notify::new());
            let handler = Handler {
                tools_changed: tools_changed.clone(),
                server: self.spec.name.clone(),
                asking: self.asking.clone(),
                log: self.log.clone(),
            };
            let oauth = self.oauth.read().map(|env| env.clone()).unwrap_or_default();
            let attempt = async {
                let connected = connect(&self.spec, handler, &self.log, &oauth, &|pid| {
                    self.update(|i| i.pid = pid)
                })
                .await?;
                let tools = connected
                    .client
                    .peer()
                    .list_all_tools()
                    .await
                    .map_err(|e| match e.auth_challenge() {
                        // Tokens refused (and not refreshed), e.g. by a new authorization server.
                        Some(challenge) => Failure::SignIn(
                            Some(challenge.to_string()).filter(|c| !c.trim().is_empty()),
                        ),
                        None => Failure::Handshake(format!("tools/list failed: {e}")),
                    })?;
                // Listening before the server is shown ready, so no change is missed.
                let listening = self.listen(connected.client.peer()).await;
                Ok::<_, Failure>((connected, tools, listening))
            };
            let outcome = tokio::select! {
                () = self.shutdown.cancelled() => break,
                outcome = tokio::time::timeout(self.spec.startup_timeout, attempt) => outcome,
            };
            let reason = match outcome {
                Ok(Ok((connected, tools, listening))) => {
                    backoff = FIRST_BACKOFF;
                    self.ready(&connected, tools);
                    self.run(connected, listening, tools_changed).await;
                    if self.shutdown.is_cancelled() {
                        break;
                    }
                    if self.state() == State::NeedsSignIn {
                        return self.wait_for_sign_in();
                    }
                    self.update(|i| i.restarts += 1);
                    "the server exited or dropped the connection; restarting".to_string()
                }
                Ok(Err(Failure::SignIn(challenge))) => {
                    self.update(|i| i.challenge = challenge);
                    self.update(|i| i.state = State::NeedsSignIn);
                    return self.wait_for_sign_in();
                }
                Ok(Err(failure)) => failure.into_reason(),
                Err(_) => format!(
                    "no answer within {} s of starting",
                    self.spec.startup_timeout.as_secs()
                ),
            };
            self.kill_group();
            self.log.line(&format!("hearth: {reason}"));
            self.update(|i| {
                i.state = State::Failed { reason };
                i.peer = None;
            });
            tokio::select! {
                () = self.shutdown.cancelled() => break,
                () = tokio::time::sleep(backoff) => {}
            }
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
        self.kill_group();
        self.update(|i| {
            i.state = State::Stopped;
            i.peer = None;
        });
    }

    /// Ends the supervisor of a server that needs a sign-in (a sign-in starts a new one).
    fn wait_for_sign_in(&self) {
        self.log
            .line("hearth: the server asks for an OAuth sign-in; not retried until then");
        self.update(|i| i.peer = None);
    }

    /// The server's last OAuth challenge.
    pub fn challenge(&self) -> Option<String> {
        self.read(|i| i.challenge.clone()).flatten()
    }

    fn ready(&self, connected: &Connected, tools: Vec<Tool>) {
        let peer = connected.client.peer().clone();
        let version = peer
            .peer_info()
            .map(|info| info.protocol_version.to_string());
        self.log.line(&format!(
            "hearth: ready with {} tools (protocol {})",
            tools.len(),
            version.as_deref().unwrap_or("?")
        ));
        self.update(|i| {
            i.state = State::Ready;
            i.tools = tools;
            i.peer = Some(peer);
            i.handler = Some(connected.client.service().clone());
            i.generation += 1;
            i.protocol_version = version;
        });
    }

    /// Serves one connection until it closes or Hearth shuts down, refreshing the tool list
    /// when the server says it changed.
    async fn run(
        &self,
        connected: Connected,
        mut listening: Option<Subscription>,
        tools_changed: Arc<Notify>,
    ) {
        let peer = connected.client.peer().clone();
        let mut stop = Some(connected.client.cancellation_token());
        let waiting = connected.client.waiting();
        tokio::pin!(waiting);
        loop {
            tokio::select! {
                _ = &mut waiting => return,
                () = self.signed_out.notified() => return,
                notification = next_notification(&mut listening) => match notification {
                    Some(ServerNotification::ToolListChangedNotification(_)) => tools_changed.notify_one(),
                    Some(_) => {}
                    None => listening = None,
                },
                () = tools_changed.notified() => {
                    let listed = tokio::time::timeout(self.spec.startup_timeout, peer.list_all_tools()).await;
                    if let Ok(Ok(tools)) = listed {
                        self.log.line(&format!("hearth: tool list changed ({} tools)", tools.len()));
                        self.update(|i| i.tools = tools);
                    }
                }
                () = self.shutdown.cancelled(), if stop.is_some() => {
                    if let Some(stop) = stop.take() {
                        stop.cancel();
                    }
                    let _ = tokio::time::timeout(SHUTDOWN_GRACE, &mut waiting).await;
                    return;
                }
            }
        }
    }

    /// On a 2026-07-28 connection, list changes come on a `subscriptions/listen` stream: opened
    /// here (a server that refuses it just never reports changes).
    async fn listen(&self, peer: &Peer<RoleClient>) -> Option<Subscription> {
        let version = peer.peer_info()?.protocol_version.clone();
        if version.has_initialize() {
            return None;
        }
        let filter = SubscriptionFilter::builder().tools_list_changed().build();
        match tokio::time::timeout(self.spec.startup_timeout, peer.listen(filter)).await {
            Ok(Ok(subscription)) => Some(subscription),
            Ok(Err(error)) => {
                self.log.line(&format!(
                    "hearth: no tools/list_changed subscription: {error}"
                ));
                None
            }
            Err(_) => None,
        }
    }

    /// Kills what is left of the stdio child's process group (a server started through `npx`
    /// or `uvx` has children of its own).
    pub fn kill_group(&self) {
        let pid = self.read(|i| i.pid).flatten();
        if let Some(pid) = pid {
            kill_process_group(pid);
            self.update(|i| i.pid = None);
        }
    }

    /// The peer of the current connection once ready (waiting through a start or restart, at
    /// most the start-up timeout plus the longest backoff), newer than `after`.
    async fn peer(&self, after: u64) -> Result<(Peer<RoleClient>, u64), ToolError> {
        let mut changes = self.changed.subscribe();
        let limit = self.spec.startup_timeout + MAX_BACKOFF;
        let wait = async {
            loop {
                let current = self.read(|i| (i.state.clone(), i.peer.clone(), i.generation));
                match current {
                    Some((State::Ready, Some(peer), generation)) if generation > after => {
                        return Ok((peer, generation));
                    }
                    Some((State::Disabled | State::Stopped, ..)) | None => {
                        return Err(self.unavailable("it is not running"));
                    }
                    Some((State::NeedsSignIn, ..)) => {
                        return Err(self.unavailable("it needs you to sign in (Settings → MCP servers, or `hearth-cli mcp login`)"));
                    }
                    Some((State::Failed { reason }, ..)) if after == 0 => {
                        return Err(self.unavailable(&reason));
                    }
                    _ => {}
                }
                if changes.changed().await.is_err() {
                    return Err(self.unavailable("it is not running"));
                }
            }
        };
        tokio::time::timeout(limit, wait)
            .await
            .unwrap_or_else(|_| Err(self.unavailable("it did not become ready in time")))
    }

    /// The current connection's peer once the server is ready (waiting through a start).
    pub async fn ready_peer(&self) -> Result<Peer<RoleClient>, ToolError> {
        self.peer(0).await.map(|(peer, _)| peer)
    }

    fn unavailable(&self, reason: &str) -> ToolError {
        ToolError::new(
            ErrorKind::Unavailable,
            format!("MCP server `{}` is unavailable: {reason}", self.spec.name),
        )
    }

    /// Calls `tool`; a call cut off by the server exiting is retried once after the restart.
    pub async fn call(
        &self,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ToolError> {
        let (peer, generation) = self.peer(0).await?;
        match self.call_once(&peer, tool, arguments.clone()).await {
            Err(Cut) => {
                self.log.line(&format!(
                    "hearth: call of {tool} cut off; retrying after the restart"
                ));
                let (peer, _) = self.peer(generation).await?;
                self.call_once(&peer, tool, arguments)
                    .await
                    .map_err(|Cut| {
                        self.unavailable(&format!("the connection dropped twice during {tool}"))
                    })?
            }
            Ok(result) => result,
        }
    }

    /// One call, through any `input_required` rounds (see [`crate::mrtr`]).
    async fn call_once(
        &self,
        peer: &Peer<RoleClient>,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<Result<CallToolResult, ToolError>, Cut> {
        let name = &self.spec.name;
        let mut params = CallToolRequestParams::new(tool.to_string());
        params.arguments = Some(arguments);
        for _ in 0..=MAX_ROUNDS {
            let request = ClientRequest::CallToolRequest(CallToolRequest::new(params.clone()));
            let options = PeerRequestOptions::with_timeout(self.spec.call_timeout)
                .reset_timeout_on_progress();
            let handle = match peer.send_request_with_option(request, options).await {
                Ok(handle) => handle,
                Err(ServiceError::TransportClosed) => return Err(Cut),
                Err(error) => return Ok(Err(self.call_error(tool, error))),
            };
            let mut guard = CancelOnDrop {
                peer: Some(peer.clone()),
                id: handle.id.clone(),
            };
            let response = handle.await_response().await;
            guard.peer = None;
            let input = match response {
                Ok(ServerResult::CallToolResult(result)) => return Ok(Ok(result)),
                Ok(ServerResult::InputRequiredResult(input)) => input,
                Ok(_) => {
                    return Ok(Err(ToolError::new(
                        ErrorKind::Internal,
                        format!("MCP server `{name}` answered {tool} with something other than a tool result"),
                    )))
                }
                Err(ServiceError::TransportClosed) => return Err(Cut),
                Err(error) => return Ok(Err(self.call_error(tool, error))),
            };
            let handler = self.read(|i| i.handler.clone()).flatten();
            let retry = match handler {
                Some(handler) => mrtr::answer(&handler, peer, input).await,
                None => Err("it is not connected".to_string()),
            };
            match retry {
                Ok(retry) => {
                    params.input_responses = retry.input_responses;
                    params.request_state = retry.request_state;
                }
                Err(reason) => {
                    return Ok(Err(ToolError::new(
                        ErrorKind::Unavailable,
                        format!(
                            "MCP server `{name}`: {tool} needs input Hearth cannot give: {reason}"
                        ),
                    )))
                }
            }
        }
        Ok(Err(ToolError::new(
            ErrorKind::Unavailable,
            format!(
                "MCP server `{name}` asked for input more than {MAX_ROUNDS} times during {tool}"
            ),
        )))
    }

    pub(crate) fn call_error(&self, tool: &str, error: ServiceError) -> ToolError {
        let name = &self.spec.name;
        if let Some(challenge) = error.auth_challenge() {
            // Refused even after a token refresh, or a scope the sign-in lacks (step-up).
            let challenge = Some(challenge.to_string()).filter(|c| !c.trim().is_empty());
            self.update(|i| {
                i.challenge = challenge;
                i.state = State::NeedsSignIn;
            });
            self.signed_out.notify_one();
            return ToolError::new(
                ErrorKind::Unavailable,
                format!("MCP server `{name}` refused {tool}: sign in to it again"),
            );
        }
        match error {
            ServiceError::Timeout { timeout } => ToolError::new(
                ErrorKind::Timeout,
                format!(
                    "MCP server `{name}`: {tool} gave no answer or progress for {} s (cancelled)",
                    timeout.as_secs()
                ),
            ),
            ServiceError::McpError(error) => ToolError::new(
                ErrorKind::InvalidArguments,
                format!("MCP server `{name}` refused {tool}: {}", error.message),
            ),
            other => ToolError::new(
                ErrorKind::Unavailable,
                format!("MCP server `{name}`: {tool} failed: {other}"),
            ),
        }
    }
}

/// The next notification of `subscription`; `None` when it ended (pending forever without one).
async fn next_notification(subscription: &mut Option<Subscription>) -> Option<ServerNotification> {
    match subscription {
        Some(subscription) => subscription.next().await.ok().flatten(),
        None => std::future::pending().await,
    }
}

/// The connection closed under a call.
struct Cut;

/// Tells the server a call was abandoned (the turn was stopped) unless it finished.
struct CancelOnDrop {
    peer: Option<Peer<RoleClient>>,
    id: RequestId,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else {
            return;
        };
        let params = CancelledNotificationParam::new(
            Some(self.id.clone()),
            Some("the user stopped the turn".to_string()),
        );
        let notification =
            ClientNotification::CancelledNotification(CancelledNotification::new(params));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = peer.send_notification(notification).await;
            });
        }
    }
}

#[cfg(unix)]
pub(crate) fn kill_process_group(pid: u32) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(pid) {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
pub(crate) fn kill_process_group(_pid: u32) {}
