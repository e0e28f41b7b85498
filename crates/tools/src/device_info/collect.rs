//! Reading each device-info section from the OS (blocking; run off the async runtime).

use crate::error::ToolError;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Component, Path};
use sysinfo::{DiskKind, Disks, Networks, System};

/// Per mounted volume and totals over distinct devices (bind mounts are counted once).
pub(super) fn storage() -> Value {
    let disks = Disks::new_with_refreshed_list();
    let user_names = user_names();
    let mut devices: HashMap<&std::ffi::OsStr, (u64, u64)> = HashMap::new();
    let mut mounts = Vec::new();
    for disk in disks.list() {
        let (total, available) = (disk.total_space(), disk.available_space());
        devices.insert(disk.name(), (total, available));
        mounts.push(json!({
            "mount_point": redact_path(disk.mount_point(), &user_names),
            "file_system": disk.file_system().to_string_lossy(),
            "kind": match disk.kind() {
                DiskKind::SSD => "ssd",
                DiskKind::HDD => "hdd",
                DiskKind::Unknown(_) => "unknown",
            },
            "removable": disk.is_removable(),
            "total": total,
            "available": available,
            "used": total.saturating_sub(available),
        }));
    }
    let total: u64 = devices.values().map(|(t, _)| t).sum();
    let available: u64 = devices.values().map(|(_, a)| a).sum();
    json!({
        "total": total,
        "available": available,
        "used": total.saturating_sub(available),
        "mounts": mounts,
    })
}

pub(super) fn memory() -> Value {
    let mut system = System::new();
    system.refresh_memory();
    json!({
        "total": system.total_memory(),
        "used": system.used_memory(),
        "available": system.available_memory(),
        "swap_total": system.total_swap(),
        "swap_used": system.used_swap(),
    })
}

/// Interface count and byte totals only: no names, addresses or MACs.
pub(super) fn network() -> Value {
    let networks = Networks::new_with_refreshed_list();
    let list = networks.list();
    json!({
        "interfaces": list.len(),
        "total_received": list.values().map(|n| n.total_received()).sum::<u64>(),
        "total_transmitted": list.values().map(|n| n.total_transmitted()).sum::<u64>(),
    })
}

/// The skills installed (`<data dir>/skills/` and the workspace's trusted project skills): how
/// many, their names, the names of those switched on, and how many folders are broken.
pub(super) fn skills(roots: &hearth_skills::SkillRoots) -> Result<Value, ToolError> {
    let library = hearth_skills::Library::load(roots)
        .map_err(|e| ToolError::internal(format!("cannot list skills: {e}")))?;
    let names: Vec<&str> = library.skills.iter().map(|s| s.name.as_str()).collect();
    let enabled: Vec<&str> = library.enabled().map(|s| s.name.as_str()).collect();
    Ok(json!({
        "installed": names.len(),
        "names": names,
        "enabled": enabled,
        "broken": library.broken.len(),
    }))
}

/// The current user's names as they may appear in paths (login name, home folder name).
fn user_names() -> Vec<String> {
    let home = ["HOME", "USERPROFILE"].into_iter().filter_map(|var| {
        let path = std::env::var_os(var)?;
        Some(Path::new(&path).file_name()?.to_string_lossy().into_owned())
    });
    let login = ["USER", "USERNAME", "LOGNAME"]
        .into_iter()
        .filter_map(|var| std::env::var(var).ok());
    let mut names: Vec<String> = home.chain(login).filter(|n| !n.is_empty()).collect();
    names.sort();
    names.dedup();
    names
}

/// `path` with every component equal to one of `user_names` replaced by `<user>`
/// (`/media/alice/USB` → `/media/<user>/USB`).
fn redact_path(path: &Path, user_names: &[String]) -> String {
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(name) if user_names.iter().any(|u| name == u.as_str()) => {
                out.push("<user>");
            }
            other => out.push(other),
        }
    }
    out.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::redact_path;
    use std::path::Path;

    #[test]
    fn user_names_in_mount_points_are_redacted() {
        let users = vec!["alice".to_string(), "Alice Smith".to_string()];
        let cases = [
            ("/media/alice/USB", "/media/<user>/USB"),
            ("/run/media/alice/Backup", "/run/media/<user>/Backup"),
            ("/home/alice", "/home/<user>"),
            ("/Users/Alice Smith/Volumes", "/Users/<user>/Volumes"),
            ("/", "/"),
            ("/boot/efi", "/boot/efi"),
            ("/media/alicea", "/media/alicea"),
        ];
        for (path, expected) in cases {
            assert_eq!(redact_path(Path::new(path), &users), expected, "{path}");
        }
        assert_eq!(redact_path(Path::new("/home/bob"), &[]), "/home/bob");
    }
}
