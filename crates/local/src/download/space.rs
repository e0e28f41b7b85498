//! The free space of the disk holding a folder, checked before a download writes a byte.

use std::path::Path;

/// The bytes this user may still write on the file system holding `folder` (or, while it does
/// not exist yet, its nearest existing parent); `None` when the system cannot tell.
#[cfg(unix)]
#[allow(clippy::useless_conversion)] // u64 on Linux, u32 and c_ulong elsewhere
pub(crate) fn available(folder: &Path) -> Option<u64> {
    let existing = folder.ancestors().find(|path| path.exists())?;
    let stats = nix::sys::statvfs::statvfs(existing).ok()?;
    u64::try_from(stats.blocks_available())
        .ok()?
        .checked_mul(u64::try_from(stats.fragment_size()).ok()?)
}

/// The space available to this user on the mounted disk whose mount point is the longest
/// prefix of `folder`.
#[cfg(not(unix))]
pub(crate) fn available(folder: &Path) -> Option<u64> {
    let folder = std::fs::canonicalize(folder).ok()?;
    let disks = sysinfo::Disks::new_with_refreshed_list();
    disks
        .list()
        .iter()
        .filter(|disk| folder.starts_with(disk.mount_point()))
        .max_by_key(|disk| disk.mount_point().as_os_str().len())
        .map(sysinfo::Disk::available_space)
}
