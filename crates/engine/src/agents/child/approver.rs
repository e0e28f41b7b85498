//! The approver of a child's calls: the parent's, while the parent's turn runs.

use std::sync::Arc;

use hearth_protocol::ApprovalDecision;
use tokio_util::sync::CancellationToken;

use crate::agents::ParentTurn;
use crate::approval::{ApprovalRequest, Approver};

/// Why a child's request was denied without asking: its parent turn had ended (or ended while
/// it waited), so nobody could see it.
const PARENT_GONE: &str = "nobody could answer: a sub-agent's approval requests are shown in \
    its parent chat only while the parent's turn runs, and that turn has ended; finish without \
    this call, or say in your result what needs approval";

/// Asks the parent's approver for a child: its requests show in the parent's window while the
/// parent's turn runs (labelled with the child). Once that turn has ended — a background child
/// outliving it — a request is denied at once with [`PARENT_GONE`] (never left waiting on a
/// card nobody sees), and so is one still waiting when the turn ends or the child is cancelled.
pub(super) struct ChildApprover {
    pub(super) inner: Arc<dyn Approver>,
    pub(super) parent: Arc<ParentTurn>,
    pub(super) cancel: CancellationToken,
}

#[async_trait::async_trait]
impl Approver for ChildApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        if !self.parent.is_live() {
            return None;
        }
        tokio::select! {
            decision = self.inner.decide(request) => decision,
            () = self.cancel.cancelled() => None,
            () = self.parent.ended() => None,
        }
    }

    fn actor(&self) -> &'static str {
        self.inner.actor()
    }

    fn unanswered(&self) -> &'static str {
        PARENT_GONE
    }
}
