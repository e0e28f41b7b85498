//! The free space of the disk holding a folder, checked before a download writes a byte.

use std::path::Path;

/// Tells the bytes free on the disk holding a folder (`None` when unknown). Tests inject one.
pub type FreeSpace = Box<dyn Fn(&Path) -> Option<u64> + Send + Sync>;

/// The space available to this user on the mounted disk whose mount point is the longest
/// prefix of `folder`.
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
