//! A workflow's steps as a DAG, pure: the checks a new workflow must pass (unique ids, known
//! dependencies, no cycle), which steps are ready, blocked or done, and marking one done.

use std::collections::{HashMap, HashSet};
use std::fmt;

use hearth_store::WorkflowStep;
use serde::Serialize;

/// Most steps a workflow has.
pub const MAX_STEPS: usize = 100;

/// Why a set of steps is not a DAG a workflow can run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DagError {
    Empty,
    TooMany(usize),
    BlankId(usize),
    Duplicate(String),
    UnknownDependency { step: String, dependency: String },
    Cycle(Vec<String>),
}

impl fmt::Display for DagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "a workflow needs at least one step"),
            Self::TooMany(n) => write!(f, "{n} steps, more than the {MAX_STEPS} allowed"),
            Self::BlankId(index) => write!(f, "step {index} has no id"),
            Self::Duplicate(id) => write!(f, "two steps have the id \"{id}\"; ids are unique"),
            Self::UnknownDependency { step, dependency } => write!(
                f,
                "step \"{step}\" depends on \"{dependency}\", which is not a step of this \
                 workflow"
            ),
            Self::Cycle(path) => write!(
                f,
                "the steps' dependencies form a cycle ({}); a workflow must be acyclic",
                path.join(" → ")
            ),
        }
    }
}

/// Checks that `steps` form a DAG: at least one, at most [`MAX_STEPS`], unique non-blank ids,
/// every dependency a step of the workflow, no cycle (a self-dependency is one).
pub fn check(steps: &[WorkflowStep]) -> Result<(), DagError> {
    if steps.is_empty() {
        return Err(DagError::Empty);
    }
    if steps.len() > MAX_STEPS {
        return Err(DagError::TooMany(steps.len()));
    }
    let mut index = HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        if step.id.trim().is_empty() {
            return Err(DagError::BlankId(i));
        }
        if index.insert(step.id.as_str(), i).is_some() {
            return Err(DagError::Duplicate(step.id.clone()));
        }
    }
    for step in steps {
        if let Some(dependency) = step
            .depends_on
            .iter()
            .find(|d| !index.contains_key(d.as_str()))
        {
            return Err(DagError::UnknownDependency {
                step: step.id.clone(),
                dependency: dependency.clone(),
            });
        }
    }
    match find_cycle(steps, &index) {
        Some(path) => Err(DagError::Cycle(path)),
        None => Ok(()),
    }
}

/// A cycle as the ids along it (the first repeated at the end), found by depth-first search.
fn find_cycle(steps: &[WorkflowStep], index: &HashMap<&str, usize>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Finished,
    }
    let mut marks = vec![Mark::New; steps.len()];
    for root in 0..steps.len() {
        if marks[root] != Mark::New {
            continue;
        }
        // The path from `root`, each entry a step and how many of its dependencies were seen.
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        marks[root] = Mark::OnPath;
        while let Some(&mut (node, ref mut seen)) = path.last_mut() {
            let Some(dependency) = steps[node].depends_on.get(*seen) else {
                marks[node] = Mark::Finished;
                path.pop();
                continue;
            };
            *seen += 1;
            let Some(&next) = index.get(dependency.as_str()) else {
                continue;
            };
            match marks[next] {
                Mark::Finished => {}
                Mark::New => {
                    marks[next] = Mark::OnPath;
                    path.push((next, 0));
                }
                Mark::OnPath => {
                    let start = path.iter().position(|&(n, _)| n == next).unwrap_or(0);
                    let mut cycle: Vec<String> = path[start..]
                        .iter()
                        .map(|&(n, _)| steps[n].id.clone())
                        .collect();
                    cycle.push(steps[next].id.clone());
                    return Some(cycle);
                }
            }
        }
    }
    None
}

/// A step that cannot start yet, with the steps it waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Blocked {
    pub id: String,
    pub waiting_on: Vec<String>,
}

/// Which steps are ready (every dependency done), blocked, and done, in step order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub ready: Vec<String>,
    pub blocked: Vec<Blocked>,
    pub done: Vec<String>,
}

pub fn progress(steps: &[WorkflowStep]) -> Progress {
    let done: HashSet<&str> = steps
        .iter()
        .filter(|s| s.done_at.is_some())
        .map(|s| s.id.as_str())
        .collect();
    let mut progress = Progress {
        ready: Vec::new(),
        blocked: Vec::new(),
        done: Vec::new(),
    };
    for step in steps {
        if step.done_at.is_some() {
            progress.done.push(step.id.clone());
            continue;
        }
        let waiting_on: Vec<String> = step
            .depends_on
            .iter()
            .filter(|d| !done.contains(d.as_str()))
            .cloned()
            .collect();
        if waiting_on.is_empty() {
            progress.ready.push(step.id.clone());
        } else {
            progress.blocked.push(Blocked {
                id: step.id.clone(),
                waiting_on,
            });
        }
    }
    progress
}

/// Why a step cannot be marked done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdvanceError {
    UnknownStep(String),
    AlreadyDone(String),
    NotReady(Blocked),
    /// No step was named and several are ready.
    WhichStep(Vec<String>),
}

impl fmt::Display for AdvanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownStep(id) => write!(f, "this workflow has no step \"{id}\""),
            Self::AlreadyDone(id) => write!(f, "step \"{id}\" is already done"),
            Self::NotReady(blocked) => write!(
                f,
                "step \"{}\" is not ready: it waits for {}",
                blocked.id,
                blocked.waiting_on.join(", ")
            ),
            Self::WhichStep(ready) => write!(
                f,
                "several steps are ready ({}); name the one that is done in step_id",
                ready.join(", ")
            ),
        }
    }
}

/// Marks a ready step done at `now`: `step`, or the only ready one when none is named.
/// Returns the step's id.
pub fn advance(
    steps: &mut [WorkflowStep],
    step: Option<&str>,
    now: i64,
) -> Result<String, AdvanceError> {
    let progress = progress(steps);
    let id = match step {
        Some(id) => id.to_string(),
        None => match progress.ready.as_slice() {
            [only] => only.clone(),
            ready => return Err(AdvanceError::WhichStep(ready.to_vec())),
        },
    };
    if let Some(blocked) = progress.blocked.into_iter().find(|b| b.id == id) {
        return Err(AdvanceError::NotReady(blocked));
    }
    if progress.done.contains(&id) {
        return Err(AdvanceError::AlreadyDone(id));
    }
    let target = steps
        .iter_mut()
        .find(|s| s.id == id)
        .ok_or_else(|| AdvanceError::UnknownStep(id.clone()))?;
    target.done_at = Some(now);
    Ok(id)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn step(id: &str, depends_on: &[&str]) -> WorkflowStep {
        WorkflowStep {
            id: id.into(),
            title: id.to_uppercase(),
            depends_on: depends_on.iter().map(|d| d.to_string()).collect(),
            done_at: None,
        }
    }

    #[test]
    fn a_dag_passes_and_every_kind_of_bad_graph_is_refused() {
        let diamond = [
            step("a", &[]),
            step("b", &["a"]),
            step("c", &["a"]),
            step("d", &["b", "c"]),
        ];
        assert_eq!(check(&diamond), Ok(()));
        assert_eq!(check(&[]), Err(DagError::Empty));
        assert_eq!(check(&[step(" ", &[])]), Err(DagError::BlankId(0)));
        assert_eq!(
            check(&[step("a", &[]), step("a", &[])]),
            Err(DagError::Duplicate("a".into()))
        );
        assert_eq!(
            check(&[step("a", &["ghost"])]),
            Err(DagError::UnknownDependency {
                step: "a".into(),
                dependency: "ghost".into()
            })
        );
        assert_eq!(
            check(&[step("a", &["a"])]),
            Err(DagError::Cycle(vec!["a".into(), "a".into()]))
        );
        let many: Vec<WorkflowStep> = (0..=MAX_STEPS).map(|i| step(&i.to_string(), &[])).collect();
        assert_eq!(check(&many), Err(DagError::TooMany(MAX_STEPS + 1)));
    }

    #[test]
    fn a_cycle_is_reported_along_its_path() {
        let steps = [
            step("start", &[]),
            step("a", &["start", "c"]),
            step("b", &["a"]),
            step("c", &["b"]),
        ];
        let error = check(&steps).unwrap_err();
        assert_eq!(
            error,
            DagError::Cycle(vec!["a".into(), "c".into(), "b".into(), "a".into()])
        );
        assert!(error.to_string().contains("a → c → b → a"), "{error}");
    }

    #[test]
    fn steps_become_ready_as_their_dependencies_are_done() {
        let mut steps = vec![
            step("a", &[]),
            step("b", &["a"]),
            step("c", &["a"]),
            step("d", &["b", "c"]),
        ];
        let first = progress(&steps);
        assert_eq!(first.ready, ["a"]);
        assert_eq!(first.blocked.len(), 3);
        assert_eq!(first.blocked[2].waiting_on, ["b", "c"]);

        assert_eq!(
            advance(&mut steps, Some("d"), 1),
            Err(AdvanceError::NotReady(Blocked {
                id: "d".into(),
                waiting_on: vec!["b".into(), "c".into()]
            }))
        );
        assert_eq!(advance(&mut steps, None, 1), Ok("a".into()));
        assert_eq!(
            advance(&mut steps, Some("a"), 2),
            Err(AdvanceError::AlreadyDone("a".into()))
        );
        assert_eq!(
            advance(&mut steps, None, 2),
            Err(AdvanceError::WhichStep(vec!["b".into(), "c".into()]))
        );
        assert_eq!(
            advance(&mut steps, Some("zz"), 2),
            Err(AdvanceError::UnknownStep("zz".into()))
        );
        advance(&mut steps, Some("c"), 3).unwrap();
        let middle = progress(&steps);
        assert_eq!(
            (middle.ready, middle.done),
            (
                vec!["b".to_string()],
                vec!["a".to_string(), "c".to_string()]
            )
        );
        advance(&mut steps, Some("b"), 4).unwrap();
        advance(&mut steps, None, 5).unwrap();
        let last = progress(&steps);
        assert!(last.ready.is_empty() && last.blocked.is_empty());
        assert_eq!(last.done.len(), 4);
    }
}
