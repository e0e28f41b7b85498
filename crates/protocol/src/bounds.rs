//! Ranges of the numeric settings, checked while `config.toml` is read (`deserialize_with`), so
//! that a value out of range stops start-up with one line naming its key, like any bad value.

use serde::de::Error;
use serde::{Deserialize, Deserializer};
use std::fmt::Display;

/// `max_iterations`: tool-loop iterations of one turn.
pub(crate) fn max_iterations<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    within(d, 1, 10_000, "")
}

/// `[[mcp_servers]] startup_timeout_secs`.
pub(crate) fn mcp_startup_secs<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    within(d, 1, 3600, " seconds")
}

/// `[[mcp_servers]] call_timeout_secs`.
pub(crate) fn mcp_call_secs<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    within(d, 1, 86_400, " seconds")
}

/// `[subagents] timeout_secs`.
pub(crate) fn subagent_secs<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    within(d, 1, 86_400, " seconds")
}

/// `[[channels]] timeout_secs`.
pub(crate) fn channel_secs<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    within(d, 1, 600, " seconds")
}

/// `[browser] idle_minutes`, `[local] idle_minutes`.
pub(crate) fn idle_minutes<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    within(d, 1, 1440, " minutes")
}

fn within<'de, D, T>(deserializer: D, min: u64, max: u64, unit: &str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Into<u64> + Display,
{
    let value = T::deserialize(deserializer)?;
    if (min..=max).contains(&value.into()) {
        Ok(value)
    } else {
        Err(D::Error::custom(format!(
            "{value} is out of range: {min} to {max}{unit}"
        )))
    }
}
