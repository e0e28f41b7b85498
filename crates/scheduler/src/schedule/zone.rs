//! Time zones: IANA names, the system's zone, and RFC 3339 display with the zone's UTC offset.

use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::Tz;

use super::ScheduleError;

/// Parses an IANA zone name (`Europe/Berlin`, `UTC`).
pub fn parse_zone(name: &str) -> Result<Tz, ScheduleError> {
    name.trim()
        .parse::<Tz>()
        .map_err(|_| ScheduleError::Zone(name.to_string()))
}

/// The system's zone (`iana-time-zone`), or UTC when it cannot be determined.
pub fn system_zone() -> Tz {
    match iana_time_zone::get_timezone() {
        Ok(name) => parse_zone(&name).unwrap_or_else(|_| {
            tracing::warn!(zone = %name, "system time zone is not an IANA name; using UTC");
            Tz::UTC
        }),
        Err(error) => {
            tracing::warn!(%error, "cannot read the system time zone; using UTC");
            Tz::UTC
        }
    }
}

/// `at` as RFC 3339 in `tz`, with the zone's UTC offset (`2025-03-09T03:00:00-04:00`).
pub fn format_in_zone(at: DateTime<Utc>, tz: Tz) -> String {
    at.with_timezone(&tz)
        .to_rfc3339_opts(SecondsFormat::Secs, false)
}
