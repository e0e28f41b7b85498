//! English phrases: "every 6 hours", "every morning at 8:00", "every weekday at 9:30", "every
//! monday and friday at 18:00", "daily at 7pm", "every month on the 1st at 9am", "at noon".
//! Each word is classified (filler, number, unit, day, part of day, time) and the pieces are
//! assembled; an unknown word is an error naming it.

use std::collections::BTreeSet;

use super::{at_time, every, resolve_hour, Days, Part, Schedule, Unit};

const FILLERS: [&str; 11] = [
    "every", "each", "at", "on", "the", "and", "in", "of", "o'clock", "&", "from",
];

#[derive(Default)]
struct Pieces {
    interval: Option<(u64, Unit)>,
    days: Option<Days>,
    part: Option<Part>,
    time: Option<(u32, u32, Option<Part>)>,
    month: bool,
    month_day: Option<u8>,
}

pub(super) fn parse(text: &str) -> Result<Schedule, String> {
    let lowered = text
        .to_lowercase()
        .replace("a.m.", "am")
        .replace("p.m.", "pm")
        .replace(',', " ");
    let words: Vec<&str> = lowered
        .split_whitespace()
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut pieces = Pieces::default();
    let mut i = 0;
    while i < words.len() {
        i += classify(&words, i, &mut pieces)?;
    }
    assemble(pieces)
}

/// Classifies `words[i]` (looking ahead where a phrase spans words); returns how many words
/// it used.
fn classify(words: &[&str], i: usize, p: &mut Pieces) -> Result<usize, String> {
    let word = words[i];
    let next = words.get(i + 1).copied();
    if FILLERS.contains(&word) {
        return Ok(1);
    }
    if let Some(unit) = unit(word) {
        set_interval(p, 1, unit)?;
        return Ok(1);
    }
    let count = match word {
        "a" | "an" | "one" => Some(1),
        "other" => Some(2),
        _ => word.parse::<u64>().ok(),
    };
    let counted_unit = next.and_then(|w| match w {
        "day" | "days" => Some(Unit::Day),
        w => unit(w),
    });
    if let (Some(n), Some(unit)) = (count, counted_unit) {
        set_interval(p, n, unit)?;
        return Ok(2);
    }
    if let Some(used) = time_words(word, next, words[..i].last().copied(), p)? {
        return Ok(used);
    }
    if let Some(day) = weekday(word) {
        add_weekday(p, day)?;
        return Ok(1);
    }
    match word {
        "hourly" => set_interval(p, 1, Unit::Hour)?,
        "day" | "days" | "daily" | "everyday" => set_days(p, Days::Every)?,
        "weekday" | "weekdays" | "workday" | "workdays" => set_days(p, Days::weekdays())?,
        "business" if matches!(next, Some("day" | "days")) => {
            set_days(p, Days::weekdays())?;
            return Ok(2);
        }
        "weekend" | "weekends" => set_days(p, Days::weekend())?,
        "morning" | "mornings" => set_part(p, Part::Am)?,
        "afternoon" | "afternoons" => set_part(p, Part::Noon)?,
        "evening" | "evenings" | "night" | "nights" | "tonight" => set_part(p, Part::Pm)?,
        "month" | "months" | "monthly" => p.month = true,
        _ => {
            return Err(format!(
                "the word \"{word}\" is not part of the schedule grammar"
            ))
        }
    }
    Ok(1)
}

/// Times: `8`, `8:30`, `8am`, `8:30pm`, `8 am`, `noon`, `midnight`, ordinals (`1st`).
fn time_words(
    word: &str,
    next: Option<&str>,
    previous: Option<&str>,
    p: &mut Pieces,
) -> Result<Option<usize>, String> {
    match word {
        "noon" | "midday" => return set_time(p, (12, 0, None)).map(|()| Some(1)),
        "midnight" => return set_time(p, (0, 0, None)).map(|()| Some(1)),
        _ => {}
    }
    for suffix in ["st", "nd", "rd", "th"] {
        if let Some(day) = word.strip_suffix(suffix).and_then(|d| d.parse::<u8>().ok()) {
            if p.month_day.replace(day).is_some() {
                return Err("two days of the month".to_string());
            }
            return Ok(Some(1));
        }
    }
    let (body, mut meridiem) = match word {
        w if w.ends_with("am") => (&w[..w.len() - 2], Some(Part::Am)),
        w if w.ends_with("pm") => (&w[..w.len() - 2], Some(Part::Pm)),
        w => (w, None),
    };
    let (hour, minute) = match body.split_once(':') {
        Some((h, m)) if m.len() == 2 => (h.parse::<u32>(), m.parse::<u32>()),
        Some(_) => return Err(format!("\"{word}\" is not a time of day")),
        None => (body.parse::<u32>(), Ok(0)),
    };
    let (Ok(hour), Ok(minute)) = (hour, minute) else {
        return Ok(None);
    };
    let mut used = 1;
    if meridiem.is_none() {
        match next {
            Some("am") => meridiem = Some(Part::Am),
            Some("pm") => meridiem = Some(Part::Pm),
            _ => {}
        }
        if meridiem.is_some() {
            used = 2;
        }
    }
    // A bare number is a time only after "at" ("at 8") or with a colon or am/pm.
    if meridiem.is_none() && !body.contains(':') && previous != Some("at") {
        return Err(format!(
            "\"{word}\" needs a unit (\"every {word} hours\") or \"at\" (\"at {word}:00\")"
        ));
    }
    if meridiem.is_some() && !(1..=12).contains(&hour) {
        return Err(format!("\"{word}\" is not a 12-hour time"));
    }
    set_time(p, (hour, minute, meridiem))?;
    Ok(Some(used))
}

fn unit(word: &str) -> Option<Unit> {
    Some(match word {
        "second" | "seconds" | "sec" | "secs" => Unit::Second,
        "minute" | "minutes" | "min" | "mins" => Unit::Minute,
        "hour" | "hours" | "hr" | "hrs" => Unit::Hour,
        "week" | "weeks" => Unit::Week,
        _ => return None,
    })
}

fn weekday(word: &str) -> Option<u8> {
    let word = word.strip_suffix('s').unwrap_or(word);
    const NAMES: [(&[&str], u8); 7] = [
        (&["sunday", "sun"], 0),
        (&["monday", "mon"], 1),
        (&["tuesday", "tue", "tues"], 2),
        (&["wednesday", "wed"], 3),
        (&["thursday", "thu", "thur", "thurs"], 4),
        (&["friday", "fri"], 5),
        (&["saturday", "sat"], 6),
    ];
    NAMES
        .iter()
        .find(|(names, _)| names.contains(&word))
        .map(|(_, day)| *day)
}

fn set_interval(p: &mut Pieces, n: u64, unit: Unit) -> Result<(), String> {
    if p.interval.replace((n, unit)).is_some() {
        return Err("two intervals".to_string());
    }
    Ok(())
}

fn set_days(p: &mut Pieces, days: Days) -> Result<(), String> {
    if p.days.replace(days).is_some() {
        return Err("two different sets of days".to_string());
    }
    Ok(())
}

fn add_weekday(p: &mut Pieces, day: u8) -> Result<(), String> {
    match &mut p.days {
        None => p.days = Some(Days::Week(BTreeSet::from([day]))),
        Some(Days::Week(set)) => {
            set.insert(day);
        }
        Some(_) => return Err("a weekday together with another set of days".to_string()),
    }
    Ok(())
}

fn set_part(p: &mut Pieces, part: Part) -> Result<(), String> {
    if p.part.replace(part).is_some() {
        return Err("two parts of the day".to_string());
    }
    Ok(())
}

fn set_time(p: &mut Pieces, time: (u32, u32, Option<Part>)) -> Result<(), String> {
    if p.time.replace(time).is_some() {
        return Err("two times of day".to_string());
    }
    Ok(())
}

fn assemble(p: Pieces) -> Result<Schedule, String> {
    if let Some((n, unit)) = p.interval {
        if p.days.is_some() || p.time.is_some() || p.part.is_some() || p.month {
            return Err("an interval (\"every 6 hours\") cannot also name days or a time".into());
        }
        return every(n, unit);
    }
    let days = match (p.month, p.month_day, p.days) {
        (true, Some(day), None) => Days::Month(day),
        (true, None, _) => return Err("say which day of the month (\"on the 1st\")".into()),
        (false, Some(_), _) | (true, Some(_), Some(_)) => {
            return Err("a day of the month needs \"every month\" and no weekday".into())
        }
        (false, None, days) => days.unwrap_or(Days::Every),
    };
    let Some((hour, minute, meridiem)) = p.time else {
        return Err("say at what time (\"at 8:00\", \"at 7pm\")".into());
    };
    // "in the morning" leaves a bare hour as it is; only a written "am" makes 12 midnight.
    let hint = p.part.filter(|part| *part != Part::Am);
    let hour = resolve_hour(hour, meridiem.or(hint))?;
    at_time(&days, hour, minute)
}
