//! Chinese phrases: 每小时, 每6小时, 每隔30分钟, 每半小时, 每天早上8点, 每晚9点半, 每周一上午9点,
//! 每周一、三、五18点, 工作日9点30分, 周末10点, 每月1号上午10点. Chinese numerals are turned into
//! digits first, then two patterns (an interval, or days + part of day + time) are matched.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::{at_time, every, resolve_hour, Days, Part, Schedule, Unit};

static INTERVAL: LazyLock<Result<Regex, regex::Error>> = LazyLock::new(|| {
    Regex::new(
        r"^每(?P<gap>隔)?(?P<n>\d+|半)?个?(?P<u>秒钟?|分钟|分|小时|钟头|天|日|周|星期|礼拜)$",
    )
});

static AT_TIME: LazyLock<Result<Regex, regex::Error>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?P<days>每天|每日|天天|每晚|每早|每个?工作日|工作日",
        r"|(?:每个?)?(?:周|星期|礼拜)1[到至~-](?:周|星期|礼拜)?5",
        r"|每?个?周末",
        r"|(?:每个?)?(?:周|星期|礼拜)[\d日天](?:[、,和及与](?:周|星期|礼拜)?[\d日天])*",
        r"|每个?月(?P<dom>\d+)[号日])?",
        r"(?P<part>早上|早晨|清晨|上午|凌晨|中午|下午|傍晚|晚上|夜里|夜间|晚间|早|晚)?",
        r"(?P<h>\d{1,2})(?:[点时](?P<m>\d{1,2}|半|整|1刻|3刻)?分?|:(?P<m2>\d{2}))$",
    ))
});

pub(super) fn parse(text: &str) -> Result<Schedule, String> {
    let text = normalise(text);
    let interval = compiled(&INTERVAL)?;
    if let Some(caps) = interval.captures(&text) {
        if let Some(schedule) = interval_schedule(&caps)? {
            return Ok(schedule);
        }
    }
    let at = compiled(&AT_TIME)?;
    let Some(caps) = at.captures(&text) else {
        return Err(
            "expected days (每天, 每周一, 工作日, 周末, 每月1号), an optional part of the day \
             (早上, 下午, 晚上), and a time (8点, 9点30分, 9点半, 18:00), or an interval (每小时, \
             每6小时, 每30分钟)"
                .to_string(),
        );
    };
    let days_text = caps.name("days").map_or("", |m| m.as_str());
    let days = days(days_text, caps.name("dom").map(|m| m.as_str()))?;
    let part = caps
        .name("part")
        .map(|m| part(m.as_str()))
        .or(match days_text {
            "每晚" => Some(Part::Pm),
            _ => None,
        });
    let hour: u32 = number(&caps, "h")?;
    let minute = match caps.name("m").or(caps.name("m2")).map(|m| m.as_str()) {
        None | Some("整") => 0,
        Some("半") => 30,
        Some("1刻") => 15,
        Some("3刻") => 45,
        Some(m) => m.parse().map_err(|_| format!("{m} is not a minute"))?,
    };
    // 上午/早上 leave a bare hour as it is (上午12点 is noon); 凌晨12点 is midnight.
    let part = match part {
        Some(Part::Am) if caps.name("part").map(|m| m.as_str()) == Some("凌晨") => Some(Part::Am),
        Some(Part::Am) => None,
        other => other,
    };
    at_time(&days, resolve_hour(hour, part)?, minute)
}

fn compiled(
    regex: &'static LazyLock<Result<Regex, regex::Error>>,
) -> Result<&'static Regex, String> {
    regex
        .as_ref()
        .map_err(|e| format!("the schedule grammar failed to compile: {e}"))
}

/// An interval schedule, or `None` for 每天/每周 without a count (those name days, not an
/// interval).
fn interval_schedule(caps: &Captures<'_>) -> Result<Option<Schedule>, String> {
    let unit_text = caps.name("u").map_or("", |m| m.as_str());
    let count = caps.name("n").map(|m| m.as_str());
    let gap = caps.name("gap").is_some();
    let unit = match unit_text {
        "秒" | "秒钟" => Unit::Second,
        "分钟" | "分" => Unit::Minute,
        "小时" | "钟头" => Unit::Hour,
        "天" | "日" if count.is_some() || gap => Unit::Day,
        "周" | "星期" | "礼拜" if count.is_some() || gap => Unit::Week,
        _ => return Ok(None),
    };
    let schedule = match count {
        Some("半") if unit == Unit::Hour => every(30, Unit::Minute)?,
        Some("半") => return Err(format!("每半{unit_text} is not supported")),
        Some(n) => every(n.parse().map_err(|_| format!("{n} is too large"))?, unit)?,
        None => every(1, unit)?,
    };
    Ok(Some(schedule))
}

fn days(text: &str, dom: Option<&str>) -> Result<Days, String> {
    if let Some(dom) = dom {
        return Ok(Days::Month(
            dom.parse().map_err(|_| format!("{dom} is not a day"))?,
        ));
    }
    Ok(match text {
        "" | "每天" | "每日" | "天天" | "每晚" | "每早" => Days::Every,
        t if t.contains("工作日") || t.contains('到') || t.contains('至') || t.contains('~') => {
            Days::weekdays()
        }
        t if t.contains('-') => Days::weekdays(),
        t if t.contains("周末") => Days::weekend(),
        t => {
            let mut set = BTreeSet::new();
            let listed = t
                .trim_start_matches('每')
                .trim_start_matches('个')
                .replace(['周', '星', '期', '礼', '拜'], "");
            for c in listed.chars().filter(|c| !"、,和及与".contains(*c)) {
                let day = match c {
                    '日' | '天' | '7' => 0,
                    d => d
                        .to_digit(10)
                        .filter(|d| (1..=6).contains(d))
                        .ok_or_else(|| format!("周{c} is not a day of the week"))?,
                };
                set.insert(u8::try_from(day).map_err(|e| e.to_string())?);
            }
            Days::Week(set)
        }
    })
}

fn part(text: &str) -> Part {
    match text {
        "早上" | "早晨" | "清晨" | "上午" | "凌晨" | "早" => Part::Am,
        "中午" => Part::Noon,
        _ => Part::Pm,
    }
}

fn number(caps: &Captures<'_>, name: &str) -> Result<u32, String> {
    let text = caps.name(name).map_or("", |m| m.as_str());
    text.parse().map_err(|_| format!("{text} is not a number"))
}

/// Chinese numerals to digits (十二 → 12, 两 → 2, 二十三 → 23, 零五 → 05), full-width colons and
/// digits to ASCII; spaces and the particles 的/在 dropped.
fn normalise(text: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    for c in text.chars() {
        let c = match c {
            '：' => ':',
            '０'..='９' => {
                char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')).unwrap_or(c)
            }
            other => other,
        };
        if "零〇一二两三四五六七八九十".contains(c) {
            run.push(c);
            continue;
        }
        if !run.is_empty() {
            out.push_str(&numeral(&run));
            run.clear();
        }
        if !c.is_whitespace() && !"的在。，.".contains(c) {
            out.push(c);
        }
    }
    if !run.is_empty() {
        out.push_str(&numeral(&run));
    }
    out
}

fn numeral(run: &str) -> String {
    let digit = |c: char| match c {
        '零' | '〇' => 0,
        '一' => 1,
        '二' | '两' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        _ => 9,
    };
    match run.split_once('十') {
        Some((tens, ones)) => {
            let tens = tens.chars().last().map_or(1, digit);
            let ones = ones.chars().next().map_or(0, digit);
            (tens * 10 + ones).to_string()
        }
        None => run.chars().map(|c| char::from(b'0' + digit(c))).collect(),
    }
}
