//! The tray's next-run line: "Next: <job> — <local time>", or "No scheduled jobs", in the
//! settings' language.

use chrono::{DateTime, Local, TimeZone};
use hearth_protocol::{Language, Text};
use hearth_store::Job;

/// The line for the enabled job that fires first, in the local time of `zone`.
pub fn next_run_label_in<Z: TimeZone>(jobs: &[Job], zone: &Z, language: Language) -> String
where
    Z::Offset: std::fmt::Display,
{
    let next = jobs
        .iter()
        .filter(|job| job.enabled)
        .filter_map(|job| job.next_run_at.map(|at| (at, job)))
        .min_by_key(|(at, _)| *at);
    let none = || Text::TrayNoJobs.in_language(language);
    let Some((at, job)) = next else {
        return none();
    };
    let Some(at) = DateTime::from_timestamp_millis(at) else {
        return none();
    };
    let local = at.with_timezone(zone);
    let when = match language {
        Language::En => local.format("%a %-d %b, %H:%M").to_string(),
        Language::ZhCn => local.format("%-m月%-d日 %H:%M").to_string(),
    };
    Text::TrayNextRun {
        name: &job.name,
        when: &when,
    }
    .in_language(language)
}

/// [`next_run_label_in`] the system's zone.
pub fn next_run_label(jobs: &[Job], language: Language) -> String {
    next_run_label_in(jobs, &Local, language)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::FixedOffset;

    fn job(name: &str, enabled: bool, next_run_at: Option<i64>) -> Job {
        Job {
            id: format!("id-{name}"),
            name: name.to_string(),
            schedule: r#"{"type":"cron","expr":"0 8 * * *"}"#.to_string(),
            tz: "UTC".to_string(),
            prompt: "p".to_string(),
            target: None,
            model: None,
            enabled,
            notify: true,
            authorization: None,
            created_at: 0,
            updated_at: 0,
            last_run_at: None,
            next_run_at,
            run_requested_at: None,
            skill: None,
        }
    }

    #[test]
    fn the_earliest_enabled_job_in_local_time() {
        // 2025-06-02 08:00 UTC is 16:00 in UTC+8.
        let at = 1_748_851_200_000;
        let jobs = [
            job("later", true, Some(at + 3_600_000)),
            job("disabled", false, Some(at - 3_600_000)),
            job("finished", true, None),
            job("morning brief", true, Some(at)),
        ];
        let zone = FixedOffset::east_opt(8 * 3600).unwrap();
        assert_eq!(
            next_run_label_in(&jobs, &zone, Language::En),
            "Next: morning brief — Mon 2 Jun, 16:00"
        );
        assert_eq!(
            next_run_label_in(&jobs, &zone, Language::ZhCn),
            "下次：morning brief — 6月2日 16:00"
        );
    }

    #[test]
    fn nothing_scheduled() {
        let zone = FixedOffset::east_opt(0).unwrap();
        assert_eq!(
            next_run_label_in(&[], &zone, Language::En),
            "No scheduled jobs"
        );
        let idle = [job("off", false, Some(1)), job("done", true, None)];
        assert_eq!(
            next_run_label_in(&idle, &zone, Language::En),
            "No scheduled jobs"
        );
        assert_eq!(
            next_run_label_in(&idle, &zone, Language::ZhCn),
            "没有计划任务"
        );
    }
}
