//! Cron expressions over `croner`: recognising them, compiling 5- and 6-field forms, and
//! DST-correct next-fire times in a zone (croner follows the OCPS rules: a fixed-time job whose
//! time falls in a skipped hour runs once, right after the gap; in a repeated hour it runs once,
//! in the first pass; interval patterns such as `*/30` run in every real occurrence).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use croner::parser::{CronParser, Seconds};
use croner::Cron;

use super::ScheduleError;

/// Whether `text` is written as a cron expression rather than a phrase: a nickname (`@daily`),
/// or five or six fields, the first starting with a digit, `*` or `?`, none holding a `:`.
pub(super) fn looks_like_cron(text: &str) -> bool {
    if text.starts_with('@') {
        return true;
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    (5..=6).contains(&fields.len())
        && fields[0]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '*' || c == '?')
        && fields.iter().all(|f| !f.contains(':'))
}

/// Collapses whitespace so equal expressions are stored (and hashed) identically.
pub(super) fn normalise(expr: &str) -> String {
    expr.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Compiles a 5-field or 6-field (seconds first) expression, or a nickname.
pub(super) fn compile(expr: &str) -> Result<Cron, ScheduleError> {
    let fail = |reason: String| ScheduleError::Cron {
        expr: expr.to_string(),
        reason,
    };
    let fields = expr.split_whitespace().count();
    if !expr.starts_with('@') && !(5..=6).contains(&fields) {
        return Err(fail(format!(
            "expected 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds \
             first), got {fields}"
        )));
    }
    CronParser::builder()
        .seconds(Seconds::Optional)
        .build()
        .parse(expr)
        .map_err(|e| fail(e.to_string()))
}

/// The first occurrence strictly after `after`, evaluated on `tz`'s wall clock.
pub(super) fn next_after(cron: &Cron, tz: Tz, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
    match cron.find_next_occurrence(&after.with_timezone(&tz), false) {
        Ok(next) => Some(next.with_timezone(&Utc)),
        Err(error) => {
            tracing::debug!(%error, pattern = %cron.pattern, "cron expression has no next run");
            None
        }
    }
}
