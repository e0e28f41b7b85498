//! Natural-language schedules in English and Chinese compile to the expected cron expression or
//! interval; unknown phrases are refused with a reason.

use hearth_scheduler::Schedule;

fn cron(expr: &str) -> Schedule {
    Schedule::Cron {
        expr: expr.to_string(),
        tz: None,
    }
}

fn every(ms: u64) -> Schedule {
    Schedule::Every { every_ms: ms }
}

fn check(table: &[(&str, Schedule)]) {
    for (phrase, expected) in table {
        match Schedule::parse(phrase) {
            Ok(schedule) => assert_eq!(&schedule, expected, "{phrase}"),
            Err(e) => panic!("{phrase:?} was refused: {e}"),
        }
    }
}

#[test]
fn english_phrases() {
    check(&[
        ("every morning at 8:00", cron("0 8 * * *")),
        ("Every morning at 8", cron("0 8 * * *")),
        ("every 6 hours", cron("0 */6 * * *")),
        ("every hour", cron("0 * * * *")),
        ("hourly", cron("0 * * * *")),
        ("every other hour", cron("0 */2 * * *")),
        ("every 5 hours", every(5 * 3_600_000)),
        ("every minute", cron("* * * * *")),
        ("every 15 minutes", cron("*/15 * * * *")),
        ("every 90 minutes", every(90 * 60_000)),
        ("every 2 days", every(2 * 86_400_000)),
        ("every 2 weeks", every(14 * 86_400_000)),
        ("every weekday at 9:30", cron("30 9 * * 1-5")),
        ("weekdays at 9:30am", cron("30 9 * * 1-5")),
        ("every business day at 17:45", cron("45 17 * * 1-5")),
        ("every monday at 18:00", cron("0 18 * * 1")),
        ("every Monday and Friday at 6pm", cron("0 18 * * 1,5")),
        ("mon, wed, fri at 7:15 am", cron("15 7 * * 1,3,5")),
        ("every sunday at noon", cron("0 12 * * 0")),
        ("every weekend at 10:00", cron("0 10 * * 0,6")),
        ("daily at 7pm", cron("0 19 * * *")),
        ("daily at 7 p.m.", cron("0 19 * * *")),
        ("every day at 12am", cron("0 0 * * *")),
        ("every day at 12pm", cron("0 12 * * *")),
        ("at midnight", cron("0 0 * * *")),
        ("every evening at 7", cron("0 19 * * *")),
        ("every night at 11:30", cron("30 23 * * *")),
        ("every afternoon at 3", cron("0 15 * * *")),
        ("every month on the 1st at 9am", cron("0 9 1 * *")),
        ("monthly on the 15th at 08:05", cron("5 8 15 * *")),
        ("at 9:00 every day.", cron("0 9 * * *")),
    ]);
}

#[test]
fn chinese_phrases() {
    check(&[
        ("每天早上8点", cron("0 8 * * *")),
        ("每天早上八点", cron("0 8 * * *")),
        ("每天8:30", cron("30 8 * * *")),
        ("每天 下午 3点", cron("0 15 * * *")),
        ("每天晚上九点半", cron("30 21 * * *")),
        ("每晚10点", cron("0 22 * * *")),
        ("每天中午12点", cron("0 12 * * *")),
        ("每天中午1点", cron("0 13 * * *")),
        ("每天凌晨12点", cron("0 0 * * *")),
        ("每天上午十点一刻", cron("15 10 * * *")),
        ("每天九点零五分", cron("5 9 * * *")),
        ("8点整", cron("0 8 * * *")),
        ("每小时", cron("0 * * * *")),
        ("每个小时", cron("0 * * * *")),
        ("每两小时", cron("0 */2 * * *")),
        ("每6小时", cron("0 */6 * * *")),
        ("每隔5小时", every(5 * 3_600_000)),
        ("每30分钟", cron("*/30 * * * *")),
        ("每半小时", cron("*/30 * * * *")),
        ("每分钟", cron("* * * * *")),
        ("每隔一天", every(86_400_000)),
        ("每周一上午9点", cron("0 9 * * 1")),
        ("每星期五下午6点", cron("0 18 * * 5")),
        ("每周日晚上8点", cron("0 20 * * 0")),
        ("周六10点", cron("0 10 * * 6")),
        ("每周一、三、五18点", cron("0 18 * * 1,3,5")),
        ("工作日9点30分", cron("30 9 * * 1-5")),
        ("每个工作日早上9点", cron("0 9 * * 1-5")),
        ("周一到周五8点", cron("0 8 * * 1-5")),
        ("周末上午10点", cron("0 10 * * 0,6")),
        ("每月1号上午10点", cron("0 10 1 * *")),
        ("每月十五日20:00", cron("0 20 15 * *")),
    ]);
}

#[test]
fn phrases_refused_with_a_reason() {
    let cases = [
        ("every day", "what time"),
        ("every morning", "what time"),
        ("every 6 hours at 8:00", "interval"),
        ("every blue moon at 8", "blue"),
        ("every monday at 25:00", "hour 25"),
        ("every day at 8:75", "minute 75"),
        ("every day at 13pm", "12-hour"),
        ("every 8", "unit"),
        ("every 10 seconds", "one minute"),
        ("every month at 9:00", "day of the month"),
        ("on the 1st at 9:00", "every month"),
        ("每天", "expected days"),
        ("每天25点", "hour 25"),
        ("每周八9点", "not a day of the week"),
        ("每10秒", "one minute"),
        ("明天早上", "expected days"),
        ("每月32号8点", "day 32"),
    ];
    for (phrase, reason) in cases {
        match Schedule::parse(phrase) {
            Ok(s) => panic!("{phrase:?} was accepted as {s:?}"),
            Err(e) => assert!(
                e.to_string().contains(reason),
                "{phrase:?}: {e} (expected to mention {reason:?})"
            ),
        }
    }
}
