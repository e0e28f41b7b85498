//! The network guard every request of Hearth passes (which hosts and addresses it may reach),
//! and the HTTP client builder every request starts from.

mod allow;
mod guard;
pub mod http;
mod resolve;
mod special;

pub use guard::{CheckedUrl, Guard, GuardError, Refusal};
pub use resolve::{HostResolver, SystemResolver};
pub use special::{special_purpose, SpecialPurpose};

/// Whether `entry` is a valid `allow_local` entry (`host` or `host:port`); the reason when not
/// (the guard leaves such entries out).
pub fn check_allow_entry(entry: &str) -> Result<(), String> {
    allow::AllowEntry::parse(entry).map(|_| ())
}
