//! Unit tests of schedule parsing, compiling, checks and descriptions.

use super::*;
use chrono::TimeZone;

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    match Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).single() {
        Some(t) => t,
        None => panic!("bad test time"),
    }
}

#[test]
fn parses_each_written_form() {
    let cron = |expr: &str| Schedule::Cron {
        expr: expr.to_string(),
        tz: None,
    };
    assert_eq!(Schedule::parse("0 8 * * *"), Ok(cron("0 8 * * *")));
    assert_eq!(
        Schedule::parse("  0   9\t* * 1-5 "),
        Ok(cron("0 9 * * 1-5"))
    );
    assert_eq!(Schedule::parse("0 0 9 * * *"), Ok(cron("0 0 9 * * *")));
    assert_eq!(Schedule::parse("@daily"), Ok(cron("@daily")));
    assert_eq!(
        Schedule::parse(r#"{"type":"every","every_ms":3600000}"#),
        Ok(Schedule::Every {
            every_ms: 3_600_000
        })
    );
    assert_eq!(
        Schedule::parse(r#"{"type":"at","at":1750000000000}"#),
        Ok(Schedule::At {
            at: 1_750_000_000_000
        })
    );
    assert_eq!(
        Schedule::parse(r#"{"type":"cron","expr":"0 0 9 * * *","tz":"Asia/Shanghai"}"#),
        Ok(Schedule::Cron {
            expr: "0 0 9 * * *".to_string(),
            tz: Some("Asia/Shanghai".to_string())
        })
    );
}

#[test]
fn refuses_malformed_schedules() {
    let cases = [
        "",
        "   ",
        "61 * * * *",
        "0 25 * * *",
        "0/5 * * * *",
        "* * * * * * *",
        "{\"type\":\"every\",\"every_ms\":59999}",
        "{\"type\":\"every\"}",
        "{\"type\":\"weekly\",\"at\":1}",
        "{\"type\":\"cron\",\"expr\":\"0 8 * * *\",\"tz\":\"Mars/Olympus\"}",
        "{\"type\":\"cron\",\"expr\":\"0 8 * * *\",\"extra\":1}",
        "{not json",
        "whenever you like",
        "every 30 seconds",
        "every 0 hours",
    ];
    for case in cases {
        assert!(Schedule::parse(case).is_err(), "{case:?} was accepted");
    }
    let message = Schedule::parse("whenever you like")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(message.contains("whenever"), "{message}");
    assert!(message.contains("every weekday at 9:30"), "{message}");
}

#[test]
fn checks_refuse_past_never_and_too_frequent() {
    let now = utc(2025, 6, 1, 12, 0);
    let check = |s: &Schedule| Plan::new(s, Tz::UTC).and_then(|p| p.check(now));
    assert!(matches!(
        check(&Schedule::At {
            at: now.timestamp_millis()
        }),
        Err(ScheduleError::InThePast(_))
    ));
    assert_eq!(
        check(&Schedule::At {
            at: now.timestamp_millis() + 1
        }),
        Ok(())
    );
    let cron = |expr: &str| Schedule::Cron {
        expr: expr.to_string(),
        tz: None,
    };
    assert_eq!(check(&cron("0 0 30 2 *")), Err(ScheduleError::Never));
    assert!(matches!(
        check(&cron("*/10 * * * * *")),
        Err(ScheduleError::TooFrequent { every_ms: 10_000 })
    ));
    assert_eq!(check(&cron("0 * * * * *")), Ok(()));
    assert!(Plan::new(&Schedule::Every { every_ms: 1000 }, Tz::UTC).is_err());
}

#[test]
fn next_runs_of_each_form() {
    let now = utc(2025, 6, 1, 12, 0);
    let every = Plan::new(
        &Schedule::Every {
            every_ms: 90 * 60_000,
        },
        Tz::UTC,
    );
    let runs = every.map(|p| p.next_runs(now, 3)).unwrap_or_default();
    let texts: Vec<String> = runs.iter().map(|t| t.to_rfc3339()).collect();
    assert_eq!(
        texts,
        [
            "2025-06-01T13:30:00+00:00",
            "2025-06-01T15:00:00+00:00",
            "2025-06-01T16:30:00+00:00"
        ]
    );
    let at = Plan::new(
        &Schedule::At {
            at: utc(2025, 6, 2, 0, 0).timestamp_millis(),
        },
        Tz::UTC,
    );
    assert_eq!(at.map(|p| p.next_runs(now, 5).len()).ok(), Some(1));
}

#[test]
fn formats_with_the_zone_offset() {
    let at = utc(2025, 3, 9, 7, 0);
    let ny = parse_zone("America/New_York").unwrap_or(Tz::UTC);
    assert_eq!(format_in_zone(at, ny), "2025-03-09T03:00:00-04:00");
    assert_eq!(format_in_zone(at, Tz::UTC), "2025-03-09T07:00:00+00:00");
    assert!(parse_zone("Nowhere/Special").is_err());
}

#[test]
fn describes_plans() {
    let describe = |s: Schedule| {
        Plan::new(&s, Tz::UTC)
            .map(|p| p.describe())
            .unwrap_or_default()
    };
    assert_eq!(
        describe(Schedule::Every {
            every_ms: 7_200_000
        }),
        "Every 2 hours."
    );
    assert_eq!(
        describe(Schedule::Every { every_ms: 60_000 }),
        "Every minute."
    );
    assert_eq!(
        describe(Schedule::Every { every_ms: 90_500 }),
        "Every 90500 milliseconds."
    );
    assert_eq!(
        describe(Schedule::Cron {
            expr: "30 9 * * 1-5".into(),
            tz: None
        }),
        "At 09:30, on Monday, Tuesday, Wednesday, Thursday, and Friday."
    );
    assert_eq!(
        describe(Schedule::At {
            at: utc(2025, 1, 1, 0, 0).timestamp_millis()
        }),
        "Once, at 2025-01-01T00:00:00+00:00."
    );
}

#[test]
fn stored_form_drops_the_zone() {
    let s = Schedule::Cron {
        expr: "0 8 * * *".into(),
        tz: Some("Europe/Berlin".into()),
    };
    assert_eq!(s.zone(), Some("Europe/Berlin"));
    assert_eq!(
        s.without_zone().to_json_string(),
        r#"{"type":"cron","expr":"0 8 * * *"}"#
    );
    assert_eq!(
        Schedule::Every { every_ms: 60_000 }.to_json_string(),
        r#"{"type":"every","every_ms":60000}"#
    );
}
