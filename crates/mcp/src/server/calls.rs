//! Calls on one server: waiting for it to be ready, the call with its timeout reset by
//! progress, `notifications/cancelled` when abandoned, one retry after a cut connection, and
//! `input_required` rounds.

use hearth_tools::{ErrorKind, ToolError};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotification,
    CancelledNotificationParam, ClientNotification, ClientRequest, JsonObject, RequestId,
    ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, ServiceError};
use rmcp::RoleClient;

use crate::mrtr::{self, MAX_ROUNDS};
use crate::oversize::too_large;
use crate::status::State;

use super::{Server, MAX_BACKOFF};

impl Server {
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
                    None => return Err(self.unavailable("it is not running")),
                    Some((state @ (State::Disabled | State::Stopped | State::NeedsSignIn), ..)) => {
                        return Err(self.unavailable(&why_not_ready(&state)));
                    }
                    Some((state @ State::Failed { .. }, ..)) if after == 0 => {
                        return Err(self.unavailable(&why_not_ready(&state)));
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

    /// Why the server's tools cannot be called now (`None` while it is ready), for a call of
    /// a tool of it that is not offered: its failure, its start, its sign-in.
    pub fn not_ready(&self) -> Option<ToolError> {
        let state = self.state();
        (state != State::Ready).then(|| self.unavailable(&why_not_ready(&state)))
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
            ServiceError::McpError(error) if too_large(&error).is_some() => ToolError::new(
                ErrorKind::TooLarge,
                format!("MCP server `{name}`: {tool} failed: {}", error.message),
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

/// Why a server in `state` takes no calls.
fn why_not_ready(state: &State) -> String {
    match state {
        State::Failed { reason } => format!("it failed: {reason}"),
        State::Starting => "it is still starting".to_string(),
        State::Disabled => "it is switched off in the settings".to_string(),
        State::NeedsSignIn => {
            "it needs you to sign in (Settings → MCP servers, or `hearth-cli mcp login`)"
                .to_string()
        }
        State::Ready | State::Stopped => "it is not running".to_string(),
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
