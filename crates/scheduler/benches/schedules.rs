//! Schedule costs: parsing a cron expression and a phrase, and computing next runs in a zone
//! with DST (what every listing and every runner tick does).

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion};
use hearth_scheduler::{parse_zone, Plan, Schedule};
use std::hint::black_box;

fn schedules(c: &mut Criterion) {
    c.bench_function("parse cron", |b| {
        b.iter(|| Schedule::parse(black_box("30 9 * * 1-5")))
    });
    c.bench_function("parse English phrase", |b| {
        b.iter(|| Schedule::parse(black_box("every monday and friday at 6pm")))
    });
    c.bench_function("parse Chinese phrase", |b| {
        b.iter(|| Schedule::parse(black_box("每周一、三、五晚上9点半")))
    });
    let zone = parse_zone("America/New_York").unwrap_or(chrono_tz::Tz::UTC);
    let start = Utc
        .with_ymd_and_hms(2025, 3, 1, 0, 0, 0)
        .single()
        .unwrap_or_default();
    for (label, expr) in [
        ("next 5 runs, weekday 9:30", "30 9 * * 1-5"),
        ("next 5 runs, */30", "*/30 * * * *"),
    ] {
        let schedule = Schedule::Cron {
            expr: expr.to_string(),
            tz: None,
        };
        let plan = match Plan::new(&schedule, zone) {
            Ok(plan) => plan,
            Err(e) => panic!("{e}"),
        };
        c.bench_function(label, |b| b.iter(|| plan.next_runs(black_box(start), 5)));
    }
}

criterion_group!(benches, schedules);
criterion_main!(benches);
