//! Integration tests of hearth-scheduler through its public API: natural-language tables, DST
//! tables, a comparison against an independent cron implementation, the job service and the
//! runner over real SQLite files.

mod dst;
mod natural;
mod oracle;
mod pause;
mod runner;
mod service;
mod support;

use chrono::{DateTime, TimeZone, Utc};

pub fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    match Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).single() {
        Some(t) => t,
        None => panic!("bad test time {y}-{mo}-{d} {h}:{mi}"),
    }
}
