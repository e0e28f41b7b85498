//! Landlock rulesets built for recent sandboxes, reused while the folders their walk read are
//! unchanged. Building one walks and opens every entry of the folders that hold a denied path
//! (`~`, `~/.config`, …), a few milliseconds for big folders; applying a built one is a `dup`
//! and one system call. An entry added to or removed from a folder changes the folder's
//! modification time, which makes the next program's ruleset be built anew.

use crate::Sandbox;
use landlock::RulesetCreated;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

/// How many sandboxes' rulesets are kept (one per workspace and kind of program in use).
const KEPT: usize = 8;

struct Built {
    sandbox: Sandbox,
    /// The folders the walk read, with their modification times then.
    walked: Vec<(PathBuf, Option<SystemTime>)>,
    ruleset: RulesetCreated,
}

static BUILT: Mutex<Vec<Built>> = Mutex::new(Vec::new());

fn modified(folder: &PathBuf) -> Option<SystemTime> {
    std::fs::metadata(folder).and_then(|m| m.modified()).ok()
}

/// The ruleset of `sandbox` (its network setting aside), from the kept ones when its walked
/// folders are unchanged, else from `build` (which returns it with the folders it walked).
pub(super) fn ruleset<E: std::fmt::Display>(
    sandbox: &Sandbox,
    build: impl FnOnce() -> Result<(RulesetCreated, Vec<PathBuf>), E>,
) -> Result<RulesetCreated, String> {
    let key = sandbox.clone().network(false);
    let mut kept = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    kept.retain(|built| {
        built.sandbox != key
            || built
                .walked
                .iter()
                .all(|(folder, time)| modified(folder) == *time)
    });
    if let Some(built) = kept.iter().find(|built| built.sandbox == key) {
        return built.ruleset.try_clone().map_err(|e| e.to_string());
    }
    let (ruleset, walked) = build().map_err(|e| e.to_string())?;
    let walked = walked
        .into_iter()
        .map(|folder| {
            let time = modified(&folder);
            (folder, time)
        })
        .collect();
    let copy = ruleset.try_clone().map_err(|e| e.to_string())?;
    if kept.len() == KEPT {
        kept.remove(0);
    }
    kept.push(Built {
        sandbox: key,
        walked,
        ruleset,
    });
    Ok(copy)
}
