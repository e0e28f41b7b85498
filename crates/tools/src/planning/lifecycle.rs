//! The task and workflow lifecycles as pure state machines: which actions each status allows and
//! where each leads. An action a status does not allow is an [`IllegalMove`] naming those it does.

use std::fmt;

use hearth_store::{TaskStatus, WorkflowStatus};

/// A task action that changes the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskMove {
    Start,
    Complete,
    Fail,
    Cancel,
    Retry,
    Update,
}

/// A workflow action that changes the workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkflowMove {
    Start,
    Advance,
    Pause,
    Resume,
    Cancel,
}

/// An action its status does not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    pub what: &'static str,
    pub action: &'static str,
    pub from: &'static str,
    pub allowed: Vec<&'static str>,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            what,
            action,
            from,
            allowed,
        } = self;
        write!(f, "cannot {action} a {from} {what}: ")?;
        if allowed.is_empty() {
            write!(f, "{from} is final, nothing more can be done with it")
        } else {
            write!(
                f,
                "from {from} the allowed actions are {}",
                allowed.join(", ")
            )
        }
    }
}

impl TaskMove {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Complete => "complete",
            Self::Fail => "fail",
            Self::Cancel => "cancel",
            Self::Retry => "retry",
            Self::Update => "update",
        }
    }

    /// The actions `status` allows.
    pub fn allowed(status: TaskStatus) -> &'static [TaskMove] {
        use TaskMove::*;
        match status {
            TaskStatus::Pending => &[Start, Cancel, Update],
            TaskStatus::Running => &[Complete, Fail, Cancel, Update],
            TaskStatus::Failed => &[Retry, Cancel, Update],
            TaskStatus::Completed | TaskStatus::Cancelled => &[],
        }
    }

    /// Where this action takes a task that is `status`.
    pub fn apply(self, status: TaskStatus) -> Result<TaskStatus, IllegalMove> {
        if !Self::allowed(status).contains(&self) {
            return Err(IllegalMove {
                what: "task",
                action: self.as_str(),
                from: status.as_str(),
                allowed: Self::allowed(status).iter().map(|m| m.as_str()).collect(),
            });
        }
        Ok(match self {
            Self::Start => TaskStatus::Running,
            Self::Complete => TaskStatus::Completed,
            Self::Fail => TaskStatus::Failed,
            Self::Cancel => TaskStatus::Cancelled,
            Self::Retry => TaskStatus::Pending,
            Self::Update => status,
        })
    }
}

impl WorkflowMove {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Advance => "advance",
            Self::Pause => "pause",
            Self::Resume => "resume",
            Self::Cancel => "cancel",
        }
    }

    /// The actions `status` allows.
    pub fn allowed(status: WorkflowStatus) -> &'static [WorkflowMove] {
        use WorkflowMove::*;
        match status {
            WorkflowStatus::Created => &[Start, Cancel],
            WorkflowStatus::Running => &[Advance, Pause, Cancel],
            WorkflowStatus::Paused => &[Resume, Cancel],
            WorkflowStatus::Completed | WorkflowStatus::Cancelled => &[],
        }
    }

    /// Where this action takes a workflow that is `status` (`advance` keeps it running; the
    /// caller completes it when its last step is done).
    pub fn apply(self, status: WorkflowStatus) -> Result<WorkflowStatus, IllegalMove> {
        if !Self::allowed(status).contains(&self) {
            return Err(IllegalMove {
                what: "workflow",
                action: self.as_str(),
                from: status.as_str(),
                allowed: Self::allowed(status).iter().map(|m| m.as_str()).collect(),
            });
        }
        Ok(match self {
            Self::Start | Self::Advance | Self::Resume => WorkflowStatus::Running,
            Self::Pause => WorkflowStatus::Paused,
            Self::Cancel => WorkflowStatus::Cancelled,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    const TASK_STATUSES: [TaskStatus; 5] = [
        TaskStatus::Pending,
        TaskStatus::Running,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ];
    const TASK_MOVES: [TaskMove; 6] = [
        TaskMove::Start,
        TaskMove::Complete,
        TaskMove::Fail,
        TaskMove::Cancel,
        TaskMove::Retry,
        TaskMove::Update,
    ];

    #[test]
    fn the_task_lifecycle_allows_exactly_its_transitions() {
        use TaskStatus::*;
        let legal = [
            (Pending, TaskMove::Start, Running),
            (Pending, TaskMove::Cancel, Cancelled),
            (Pending, TaskMove::Update, Pending),
            (Running, TaskMove::Complete, Completed),
            (Running, TaskMove::Fail, Failed),
            (Running, TaskMove::Cancel, Cancelled),
            (Running, TaskMove::Update, Running),
            (Failed, TaskMove::Retry, Pending),
            (Failed, TaskMove::Cancel, Cancelled),
            (Failed, TaskMove::Update, Failed),
        ];
        for from in TASK_STATUSES {
            for action in TASK_MOVES {
                let expected = legal
                    .iter()
                    .find(|(f, a, _)| *f == from && *a == action)
                    .map(|(_, _, to)| *to);
                match (action.apply(from), expected) {
                    (Ok(to), Some(want)) => assert_eq!(to, want, "{from:?} {action:?}"),
                    (Err(illegal), None) => {
                        let named: Vec<&str> =
                            TaskMove::allowed(from).iter().map(|m| m.as_str()).collect();
                        assert_eq!(illegal.allowed, named);
                        assert_eq!(illegal.from, from.as_str());
                    }
                    (got, want) => panic!("{from:?} {action:?}: {got:?}, wanted {want:?}"),
                }
            }
        }
    }

    #[test]
    fn an_illegal_move_names_the_allowed_ones() {
        let illegal = TaskMove::Complete.apply(TaskStatus::Pending).unwrap_err();
        assert_eq!(
            illegal.to_string(),
            "cannot complete a pending task: from pending the allowed actions are start, \
             cancel, update"
        );
        let final_one = TaskMove::Retry.apply(TaskStatus::Completed).unwrap_err();
        assert_eq!(
            final_one.to_string(),
            "cannot retry a completed task: completed is final, nothing more can be done with it"
        );
    }

    #[test]
    fn the_workflow_lifecycle_allows_exactly_its_transitions() {
        use WorkflowStatus::*;
        let statuses = [Created, Running, Paused, Completed, Cancelled];
        let moves = [
            WorkflowMove::Start,
            WorkflowMove::Advance,
            WorkflowMove::Pause,
            WorkflowMove::Resume,
            WorkflowMove::Cancel,
        ];
        let legal = [
            (Created, WorkflowMove::Start, Running),
            (Created, WorkflowMove::Cancel, Cancelled),
            (Running, WorkflowMove::Advance, Running),
            (Running, WorkflowMove::Pause, Paused),
            (Running, WorkflowMove::Cancel, Cancelled),
            (Paused, WorkflowMove::Resume, Running),
            (Paused, WorkflowMove::Cancel, Cancelled),
        ];
        for from in statuses {
            for action in moves {
                let expected = legal
                    .iter()
                    .find(|(f, a, _)| *f == from && *a == action)
                    .map(|(_, _, to)| *to);
                assert_eq!(action.apply(from).ok(), expected, "{from:?} {action:?}");
            }
        }
        let paused = WorkflowMove::Advance.apply(Paused).unwrap_err();
        assert_eq!(
            paused.to_string(),
            "cannot advance a paused workflow: from paused the allowed actions are resume, cancel"
        );
    }
}
