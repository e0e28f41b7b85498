//! The process table as `/proc` shows it: each process's parent, group, session and start time,
//! and the processes a set of roots covers (their groups and all their descendants).

use std::collections::{BTreeSet, HashMap};

/// One live process (zombies are left out: they have ended and only wait to be reaped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Proc {
    pub(crate) pid: i32,
    pub(crate) ppid: i32,
    pub(crate) pgid: i32,
    /// Clock ticks after boot at which it started: with the pid, names the process even after
    /// the pid is reused.
    pub(crate) start: u64,
}

/// Parses `/proc/<pid>/stat`; `None` for a zombie or an unreadable entry.
fn parse_stat(pid: i32, text: &str) -> Option<Proc> {
    // The command name (field 2) is in parentheses and may hold spaces or `)`.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    if matches!(fields.first(), Some(&"Z") | Some(&"X") | None) {
        return None;
    }
    Some(Proc {
        pid,
        ppid: fields.get(1)?.parse().ok()?,
        pgid: fields.get(2)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// The live process `pid`, if any.
pub(crate) fn process(pid: i32) -> Option<Proc> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(pid, &text)
}

/// The children of `pid` (those of each of its threads), from `/proc/PID/task/TID/children`;
/// `None` where the kernel does not list them (`CONFIG_PROC_CHILDREN` off) or `/proc` cannot be
/// read. Reading a handful of small files, it is far cheaper than a [`snapshot`].
pub(crate) fn children(pid: i32) -> Option<Vec<i32>> {
    let mut children = Vec::new();
    for thread in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let listed = std::fs::read_to_string(thread.ok()?.path().join("children")).ok()?;
        children.extend(
            listed
                .split_whitespace()
                .filter_map(|child| child.parse::<i32>().ok()),
        );
    }
    Some(children)
}

/// Every live process.
pub(crate) fn snapshot() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(process)
        .collect()
}

/// The processes of `table` that are in the group of a root or descend from a root or from
/// such a group's members; roots included.
pub(crate) fn covered(table: &[Proc], roots: &[i32]) -> BTreeSet<i32> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for proc in table {
        children.entry(proc.ppid).or_default().push(proc.pid);
    }
    let mut found: BTreeSet<i32> = BTreeSet::new();
    let mut pending: Vec<i32> = roots.to_vec();
    pending.extend(
        table
            .iter()
            .filter(|proc| roots.contains(&proc.pgid))
            .map(|proc| proc.pid),
    );
    while let Some(pid) = pending.pop() {
        if found.insert(pid) {
            pending.extend(children.get(&pid).into_iter().flatten());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_children_of_this_process_are_listed_and_gone_once_reaped() {
        let me = i32::try_from(std::process::id()).unwrap();
        let before = children(me).expect("the kernel lists children (CONFIG_PROC_CHILDREN)");
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        assert!(children(me).unwrap().contains(&pid));
        assert!(!before.contains(&pid));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!children(me).unwrap().contains(&pid));
        assert_eq!(children(-1), None);
    }

    #[test]
    fn a_stat_line_with_spaces_and_parentheses_in_the_name_parses() {
        let line = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 \
                    987654 1000 10 18446744073709551615";
        let proc = parse_stat(4242, line).unwrap();
        assert_eq!(
            proc,
            Proc {
                pid: 4242,
                ppid: 1,
                pgid: 4242,
                start: 987654
            }
        );
        assert_eq!(parse_stat(1, "1 (gone) Z 0 1 1 0"), None);
    }

    #[test]
    fn groups_and_descendants_are_covered_and_nothing_else() {
        let p = |pid, ppid, pgid| Proc {
            pid,
            ppid,
            pgid,
            start: 1,
        };
        // 10 is a root; 11 its child; 12 left its parent but not the group; 13 a grandchild
        // in a session of its own; 20 unrelated.
        let table = [
            p(10, 1, 10),
            p(11, 10, 10),
            p(12, 1, 10),
            p(13, 11, 13),
            p(20, 1, 20),
        ];
        let found: Vec<i32> = covered(&table, &[10]).into_iter().collect();
        assert_eq!(found, [10, 11, 12, 13]);
    }

    #[test]
    fn this_process_is_in_the_table() {
        let me = i32::try_from(std::process::id()).unwrap();
        assert!(snapshot().iter().any(|proc| proc.pid == me));
        assert_eq!(process(me).map(|proc| proc.pid), Some(me));
    }
}
