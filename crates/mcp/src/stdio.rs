//! The stdio transport: the server's child process, its stdout read through [`Oversize`] (an
//! answer too large to read is answered with an error at once), and closing as the MCP
//! specification asks (stdin closed, then `SIGTERM`, then killed).

use std::future::Future;
use std::time::Duration;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::RoleClient;
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::log::ServerLog;
use crate::oversize::Oversize;

/// How long the server gets to exit after stdin is closed, and again after `SIGTERM`.
const EXIT_GRACE: Duration = Duration::from_secs(3);

pub struct StdioTransport {
    child: Child,
    transport: AsyncRwTransport<RoleClient, Oversize<ChildStdout>, ChildStdin>,
}

impl StdioTransport {
    /// The transport over `child`'s stdin and stdout (both piped); `None` if either is missing.
    pub fn new(mut child: Child, log: ServerLog) -> Option<StdioTransport> {
        let stdout = child.stdout.take()?;
        let stdin = child.stdin.take()?;
        Some(StdioTransport {
            child,
            transport: AsyncRwTransport::new(Oversize::new(stdout, log), stdin),
        })
    }

    async fn exited(&mut self) -> bool {
        matches!(
            tokio::time::timeout(EXIT_GRACE, self.child.wait()).await,
            Ok(Ok(_))
        )
    }
}

impl Transport<RoleClient> for StdioTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.transport.close().await?;
        if self.exited().await {
            return Ok(());
        }
        #[cfg(unix)]
        if let Some(pid) = self.child.id().and_then(|pid| i32::try_from(pid).ok()) {
            use nix::sys::signal::{kill, Signal};
            let _ = kill(nix::unistd::Pid::from_raw(pid), Signal::SIGTERM);
            if self.exited().await {
                return Ok(());
            }
        }
        self.child.kill().await
    }
}
