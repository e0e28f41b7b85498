//! Natural-language schedules in English and Chinese: a small grammar of "which days" + "what
//! time", or "every N units", compiled to a cron expression (or an `every` interval where cron
//! cannot express it evenly, such as every 90 minutes).

mod en;
mod zh;

use std::collections::BTreeSet;

use hearth_protocol::is_cjk;

use super::{Schedule, ScheduleError, MIN_INTERVAL_MS};

/// Parses a phrase; Chinese when it holds any CJK character, else English.
pub(super) fn parse(text: &str) -> Result<Schedule, ScheduleError> {
    let result = if text.chars().any(is_cjk) {
        zh::parse(text)
    } else {
        en::parse(text)
    };
    result.map_err(|reason| ScheduleError::Unrecognised {
        text: text.to_string(),
        reason,
    })
}

/// Which days a daily-style phrase fires on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Days {
    Every,
    /// Days of the week, 0 = Sunday … 6 = Saturday.
    Week(BTreeSet<u8>),
    /// A day of the month, 1–31.
    Month(u8),
}

impl Days {
    fn weekdays() -> Days {
        Days::Week((1..=5).collect())
    }

    fn weekend() -> Days {
        Days::Week([0, 6].into_iter().collect())
    }
}

/// A part of the day that decides how a bare hour reads ("evening at 7" is 19:00).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Am,
    Noon,
    Pm,
}

/// The 24-hour clock hour for `hour` said with `part` of the day (`Am` only for a written "am":
/// 12am is midnight).
fn resolve_hour(hour: u32, part: Option<Part>) -> Result<u32, String> {
    let resolved = match part {
        Some(Part::Pm) if hour < 12 => hour + 12,
        Some(Part::Noon) if hour < 6 => hour + 12,
        Some(Part::Am) if hour == 12 => 0,
        _ => hour,
    };
    if resolved > 23 {
        return Err(format!("there is no hour {hour}"));
    }
    Ok(resolved)
}

/// A fixed time on the given days, as a 5-field cron expression.
fn at_time(days: &Days, hour: u32, minute: u32) -> Result<Schedule, String> {
    if minute > 59 {
        return Err(format!("there is no minute {minute}"));
    }
    let (dom, dow) = match days {
        Days::Every => ("*".to_string(), "*".to_string()),
        Days::Week(set) => ("*".to_string(), compact_days(set)),
        Days::Month(day) if (1..=31).contains(day) => (day.to_string(), "*".to_string()),
        Days::Month(day) => return Err(format!("there is no day {day} of a month")),
    };
    Ok(Schedule::Cron {
        expr: format!("{minute} {hour} {dom} * {dow}"),
        tz: None,
    })
}

/// `1-5` for Monday to Friday, else the list.
fn compact_days(set: &BTreeSet<u8>) -> String {
    if *set == (1..=5).collect::<BTreeSet<u8>>() {
        return "1-5".to_string();
    }
    let list: Vec<String> = set.iter().map(u8::to_string).collect();
    list.join(",")
}

/// Units an interval phrase can count in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
}

/// "Every `n` units": cron where it divides the hour or day evenly (so runs stay on round
/// times), else a plain interval.
fn every(n: u64, unit: Unit) -> Result<Schedule, String> {
    if n == 0 {
        return Err("an interval of zero never advances".to_string());
    }
    let cron = |expr: String| Ok(Schedule::Cron { expr, tz: None });
    match unit {
        Unit::Minute if n == 1 => cron("* * * * *".to_string()),
        Unit::Minute if 60 % n == 0 => cron(format!("*/{n} * * * *")),
        Unit::Hour if n == 1 => cron("0 * * * *".to_string()),
        Unit::Hour if 24 % n == 0 => cron(format!("0 */{n} * * *")),
        _ => {
            let size: u64 = match unit {
                Unit::Second => 1_000,
                Unit::Minute => 60_000,
                Unit::Hour => 3_600_000,
                Unit::Day => 86_400_000,
                Unit::Week => 7 * 86_400_000,
            };
            let every_ms = n
                .checked_mul(size)
                .ok_or_else(|| format!("{n} is too large an interval"))?;
            if every_ms < MIN_INTERVAL_MS {
                return Err(format!(
                    "the shortest interval allowed is one minute, got {every_ms} ms"
                ));
            }
            Ok(Schedule::Every { every_ms })
        }
    }
}
