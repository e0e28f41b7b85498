//! Schedules: the three stored forms (`at`, `every`, `cron`), parsing them from text (cron,
//! natural language in English or Chinese, or JSON) and compiling them in a time zone into a
//! [`Plan`] that answers next-fire times and describes itself.

mod cron;
mod natural;
mod zone;

use chrono::{DateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use zone::{format_in_zone, parse_zone, system_zone};

/// The shortest interval a job may repeat at (`every` schedules and cron expressions alike).
pub const MIN_INTERVAL_MS: u64 = 60_000;

/// How a job repeats, as stored (JSON with a `type` tag, PicoBot's shape).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Schedule {
    /// Once, at a unix time in milliseconds.
    At { at: i64 },
    /// Every `every_ms` milliseconds (at least a minute), counted from the previous run.
    Every { every_ms: u64 },
    /// A 5-field (`min hour dom mon dow`) or 6-field (seconds first) cron expression, in `tz`
    /// when given, else in the job's zone.
    Cron {
        expr: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        tz: Option<String>,
    },
}

/// Why a schedule was refused. Messages are written for the model and the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("the schedule is empty")]
    Empty,
    #[error("invalid cron expression `{expr}`: {reason}")]
    Cron { expr: String, reason: String },
    #[error(
        "`{text}` is not a schedule I understand: {reason}. Use a cron expression (`0 8 * * *`, \
         or 6 fields with seconds first), a phrase such as \"every morning at 8:00\", \"every 6 \
         hours\", \"every weekday at 9:30\", \"every monday at 18:00\", \"daily at 7pm\", \
         \"每天早上8点\", \"每小时\", \"每周一上午9点\", \"工作日9点30分\", or JSON such as \
         {{\"type\":\"every\",\"every_ms\":3600000}}"
    )]
    Unrecognised { text: String, reason: String },
    #[error("invalid schedule JSON: {0}")]
    Json(String),
    #[error("unknown time zone `{0}`: use an IANA name such as Europe/Berlin or Asia/Shanghai")]
    Zone(String),
    #[error(
        "the schedule fires every {every_ms} ms; the shortest interval allowed is {MIN_INTERVAL_MS} \
         ms (one minute)"
    )]
    TooFrequent { every_ms: u64 },
    #[error("the time {0} is already past")]
    InThePast(String),
    #[error("the schedule never fires")]
    Never,
}

impl Schedule {
    /// Parses the text a user or model writes: JSON (`{"type": ...}`), a cron expression
    /// (5 or 6 fields, or a nickname such as `@daily`), or a natural-language phrase.
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ScheduleError::Empty);
        }
        if text.starts_with('{') {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| ScheduleError::Json(e.to_string()))?;
            return Schedule::from_json(value);
        }
        if cron::looks_like_cron(text) {
            let expr = cron::normalise(text);
            cron::compile(&expr)?;
            return Ok(Schedule::Cron { expr, tz: None });
        }
        natural::parse(text)
    }

    /// Reads the JSON form (PicoBot's `{"type":"at"|"every"|"cron", ...}`) and checks it.
    pub fn from_json(value: serde_json::Value) -> Result<Schedule, ScheduleError> {
        let schedule: Schedule =
            serde_json::from_value(value).map_err(|e| ScheduleError::Json(e.to_string()))?;
        match &schedule {
            Schedule::Cron { expr, tz } => {
                if let Some(tz) = tz {
                    parse_zone(tz)?;
                }
                let expr = cron::normalise(expr);
                cron::compile(&expr)?;
                Ok(Schedule::Cron {
                    expr,
                    tz: tz.clone(),
                })
            }
            Schedule::Every { every_ms } if *every_ms < MIN_INTERVAL_MS => {
                Err(ScheduleError::TooFrequent {
                    every_ms: *every_ms,
                })
            }
            _ => Ok(schedule),
        }
    }

    /// The zone a `cron` schedule names, if any.
    pub fn zone(&self) -> Option<&str> {
        match self {
            Schedule::Cron { tz, .. } => tz.as_deref(),
            _ => None,
        }
    }

    /// The same schedule without a zone of its own (the job's zone column holds it).
    pub fn without_zone(&self) -> Schedule {
        match self {
            Schedule::Cron { expr, .. } => Schedule::Cron {
                expr: expr.clone(),
                tz: None,
            },
            other => other.clone(),
        }
    }

    /// The canonical JSON text (what is stored and hashed).
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A schedule compiled in a time zone: next-fire times and a description.
#[derive(Debug, Clone)]
pub struct Plan {
    kind: PlanKind,
    tz: Tz,
}

#[derive(Debug, Clone)]
enum PlanKind {
    At(DateTime<Utc>),
    Every(chrono::Duration),
    Cron(Box<croner::Cron>),
}

impl Plan {
    /// Compiles `schedule` in `tz` (a `cron` schedule's own zone is the caller's business: pass
    /// the effective zone).
    pub fn new(schedule: &Schedule, tz: Tz) -> Result<Plan, ScheduleError> {
        let kind = match schedule {
            Schedule::At { at } => PlanKind::At(
                Utc.timestamp_millis_opt(*at)
                    .single()
                    .ok_or_else(|| ScheduleError::Json(format!("`at` {at} is out of range")))?,
            ),
            Schedule::Every { every_ms } => {
                if *every_ms < MIN_INTERVAL_MS {
                    return Err(ScheduleError::TooFrequent {
                        every_ms: *every_ms,
                    });
                }
                let ms = i64::try_from(*every_ms).map_err(|_| ScheduleError::Never)?;
                PlanKind::Every(chrono::Duration::milliseconds(ms))
            }
            Schedule::Cron { expr, .. } => PlanKind::Cron(Box::new(cron::compile(expr)?)),
        };
        Ok(Plan { kind, tz })
    }

    pub fn zone(&self) -> Tz {
        self.tz
    }

    /// The first fire time strictly after `after`, or `None` when the schedule is finished
    /// (an `at` in the past, a cron expression that never matches again).
    pub fn next_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match &self.kind {
            PlanKind::At(at) => (*at > after).then_some(*at),
            PlanKind::Every(every) => after.checked_add_signed(*every),
            PlanKind::Cron(cron) => cron::next_after(cron, self.tz, after),
        }
    }

    /// The next `n` fire times after `after`, in the plan's zone (for previews).
    pub fn next_runs(&self, after: DateTime<Utc>, n: usize) -> Vec<DateTime<Tz>> {
        let mut out = Vec::with_capacity(n);
        let mut cursor = after;
        while out.len() < n {
            let Some(next) = self.next_after(cursor) else {
                break;
            };
            out.push(next.with_timezone(&self.tz));
            cursor = next;
        }
        out
    }

    /// Checks that the plan fires after `now` and not more often than once a minute.
    pub fn check(&self, now: DateTime<Utc>) -> Result<(), ScheduleError> {
        match &self.kind {
            PlanKind::At(at) if *at <= now => {
                Err(ScheduleError::InThePast(format_in_zone(*at, self.tz)))
            }
            PlanKind::Cron(_) => {
                let runs = self.next_runs(now, 4);
                if runs.is_empty() {
                    return Err(ScheduleError::Never);
                }
                for pair in runs.windows(2) {
                    let gap = (pair[1] - pair[0]).num_milliseconds();
                    let gap = u64::try_from(gap).unwrap_or(0);
                    if gap < MIN_INTERVAL_MS {
                        return Err(ScheduleError::TooFrequent { every_ms: gap });
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A short English description ("At 08:00, on Monday.", "Every 6 hours.").
    pub fn describe(&self) -> String {
        match &self.kind {
            PlanKind::At(at) => format!("Once, at {}.", format_in_zone(*at, self.tz)),
            PlanKind::Every(every) => describe_every(every.num_milliseconds()),
            PlanKind::Cron(cron) => cron.describe(),
        }
    }
}

fn describe_every(ms: i64) -> String {
    const UNITS: [(i64, &str); 4] = [
        (86_400_000, "day"),
        (3_600_000, "hour"),
        (60_000, "minute"),
        (1_000, "second"),
    ];
    for (size, unit) in UNITS {
        if ms % size == 0 {
            let n = ms / size;
            return if n == 1 {
                format!("Every {unit}.")
            } else {
                format!("Every {n} {unit}s.")
            };
        }
    }
    format!("Every {ms} milliseconds.")
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
