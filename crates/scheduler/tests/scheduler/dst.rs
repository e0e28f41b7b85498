//! DST tables: in America/New_York, Europe/Berlin, Australia/Sydney, America/Santiago (changes at
//! midnight) and Australia/Lord_Howe (30-minute change), a fixed-time job whose time is skipped
//! runs once (right after the gap), one whose time repeats runs once (in the first pass), and
//! interval patterns (`*/30`, hourly) run at every real interval across both changes.

use chrono::{DateTime, Duration, Offset, Utc};
use hearth_scheduler::{parse_zone, Plan, Schedule};

use crate::utc;

fn plan(expr: &str, zone: &str) -> Plan {
    let tz = match parse_zone(zone) {
        Ok(tz) => tz,
        Err(e) => panic!("{e}"),
    };
    let schedule = Schedule::Cron {
        expr: expr.to_string(),
        tz: None,
    };
    match Plan::new(&schedule, tz) {
        Ok(plan) => plan,
        Err(e) => panic!("{expr}: {e}"),
    }
}

fn runs(expr: &str, zone: &str, after: DateTime<Utc>, n: usize) -> Vec<String> {
    plan(expr, zone)
        .next_runs(after, n)
        .iter()
        .map(|t| t.to_rfc3339())
        .collect()
}

/// (zone, expression, search start, the three runs expected around the change).
type Row = (&'static str, &'static str, DateTime<Utc>, [&'static str; 3]);

#[test]
fn fixed_time_in_a_skipped_hour_runs_once_after_the_gap() {
    let table: [Row; 5] = [
        (
            "America/New_York",
            "30 2 * * *",
            utc(2025, 3, 7, 12, 0),
            [
                "2025-03-08T02:30:00-05:00",
                "2025-03-09T03:00:00-04:00",
                "2025-03-10T02:30:00-04:00",
            ],
        ),
        (
            "Europe/Berlin",
            "30 2 * * *",
            utc(2025, 3, 28, 12, 0),
            [
                "2025-03-29T02:30:00+01:00",
                "2025-03-30T03:00:00+02:00",
                "2025-03-31T02:30:00+02:00",
            ],
        ),
        (
            "Australia/Sydney",
            "30 2 * * *",
            utc(2025, 10, 3, 0, 0),
            [
                "2025-10-04T02:30:00+10:00",
                "2025-10-05T03:00:00+11:00",
                "2025-10-06T02:30:00+11:00",
            ],
        ),
        (
            "America/Santiago",
            "30 0 * * *",
            utc(2025, 9, 5, 12, 0),
            [
                "2025-09-06T00:30:00-04:00",
                "2025-09-07T01:00:00-03:00",
                "2025-09-08T00:30:00-03:00",
            ],
        ),
        (
            "Australia/Lord_Howe",
            "15 2 * * *",
            utc(2025, 10, 3, 0, 0),
            [
                "2025-10-04T02:15:00+10:30",
                "2025-10-05T02:30:00+11:00",
                "2025-10-06T02:15:00+11:00",
            ],
        ),
    ];
    for (zone, expr, start, expected) in table {
        assert_eq!(runs(expr, zone, start, 3), expected, "{zone} {expr}");
    }
    // Midnight itself is skipped in Santiago: a midnight job runs at 01:00 that day, once.
    assert_eq!(
        runs("0 0 * * *", "America/Santiago", utc(2025, 9, 5, 12, 0), 3),
        [
            "2025-09-06T00:00:00-04:00",
            "2025-09-07T01:00:00-03:00",
            "2025-09-08T00:00:00-03:00"
        ]
    );
}

#[test]
fn fixed_time_in_a_repeated_hour_runs_once() {
    let table: [Row; 5] = [
        (
            "America/New_York",
            "30 1 * * *",
            utc(2025, 10, 31, 12, 0),
            [
                "2025-11-01T01:30:00-04:00",
                "2025-11-02T01:30:00-04:00",
                "2025-11-03T01:30:00-05:00",
            ],
        ),
        (
            "Europe/Berlin",
            "30 2 * * *",
            utc(2025, 10, 24, 12, 0),
            [
                "2025-10-25T02:30:00+02:00",
                "2025-10-26T02:30:00+02:00",
                "2025-10-27T02:30:00+01:00",
            ],
        ),
        (
            "Australia/Sydney",
            "30 2 * * *",
            utc(2025, 4, 4, 0, 0),
            [
                "2025-04-05T02:30:00+11:00",
                "2025-04-06T02:30:00+11:00",
                "2025-04-07T02:30:00+10:00",
            ],
        ),
        (
            "America/Santiago",
            "30 23 * * *",
            utc(2025, 4, 4, 12, 0),
            [
                "2025-04-04T23:30:00-03:00",
                "2025-04-05T23:30:00-03:00",
                "2025-04-06T23:30:00-04:00",
            ],
        ),
        (
            "Australia/Lord_Howe",
            "45 1 * * *",
            utc(2025, 4, 4, 0, 0),
            [
                "2025-04-05T01:45:00+11:00",
                "2025-04-06T01:45:00+11:00",
                "2025-04-07T01:45:00+10:30",
            ],
        ),
    ];
    for (zone, expr, start, expected) in table {
        assert_eq!(runs(expr, zone, start, 3), expected, "{zone} {expr}");
    }
}

/// The UTC instants of each zone's two 2025 changes.
/// A UTC instant as (year, month, day, hour, minute).
type Instant = (i32, u32, u32, u32, u32);

const CHANGES: [(&str, [Instant; 2]); 5] = [
    (
        "America/New_York",
        [(2025, 3, 9, 7, 0), (2025, 11, 2, 6, 0)],
    ),
    ("Europe/Berlin", [(2025, 3, 30, 1, 0), (2025, 10, 26, 1, 0)]),
    (
        "Australia/Sydney",
        [(2025, 4, 5, 16, 0), (2025, 10, 4, 16, 0)],
    ),
    ("America/Santiago", [(2025, 4, 6, 3, 0), (2025, 9, 7, 4, 0)]),
    (
        "Australia/Lord_Howe",
        [(2025, 4, 5, 15, 0), (2025, 10, 4, 15, 30)],
    ),
];

#[test]
fn interval_patterns_skip_nothing_across_both_changes() {
    for (zone, changes) in CHANGES {
        for (y, mo, d, h, mi) in changes {
            let change = utc(y, mo, d, h, mi);
            // Hourly runs at :00 are a real hour apart only where the clock moves whole hours.
            let patterns: &[(&str, i64)] = if zone == "Australia/Lord_Howe" {
                &[("*/30 * * * *", 30)]
            } else {
                &[("*/30 * * * *", 30), ("0 * * * *", 60)]
            };
            for &(expr, step) in patterns {
                let plan = plan(expr, zone);
                let window = plan.next_runs(
                    change - Duration::hours(4),
                    usize::try_from(8 * 60 / step).unwrap_or(0),
                );
                let offsets: Vec<i32> = window
                    .iter()
                    .map(|t| t.offset().fix().local_minus_utc())
                    .collect();
                assert_ne!(
                    offsets.first(),
                    offsets.last(),
                    "{zone}: window misses the change"
                );
                for pair in window.windows(2) {
                    assert_eq!(
                        (pair[1] - pair[0]).num_minutes(),
                        step,
                        "{zone} {expr}: {} then {}",
                        pair[0].to_rfc3339(),
                        pair[1].to_rfc3339()
                    );
                }
            }
        }
    }
}
