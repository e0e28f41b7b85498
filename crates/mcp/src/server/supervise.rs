//! The supervisor of one server: connecting it, listing and refreshing its tools, restarting
//! it with backoff, waiting for an OAuth sign-in, and killing its process group.

use std::sync::Arc;

use rmcp::model::{ServerNotification, SubscriptionFilter, Tool};
use rmcp::service::{Peer, Subscription};
use rmcp::RoleClient;
use tokio::sync::Notify;

use crate::connect::{connect, Connected, Failure, Handler};
use crate::status::State;

use super::{Server, FIRST_BACKOFF, MAX_BACKOFF, SHUTDOWN_GRACE};

impl Server {
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
}

async fn next_notification(subscription: &mut Option<Subscription>) -> Option<ServerNotification> {
    match subscription {
        Some(subscription) => subscription.next().await.ok().flatten(),
        None => std::future::pending().await,
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
