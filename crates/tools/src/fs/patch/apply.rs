//! Applying parsed hunks to a text, all or none: each hunk's old lines are found exactly
//! (nearest the diff's line number) or, failing that, by similarity at or above the threshold.

use super::parse::{Hunk, Parsed};
use similar::TextDiff;

/// How many best windows by the quick per-line score get the exact similarity measure.
const CANDIDATES: usize = 5;

/// A hunk placed by similarity rather than exactly.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fuzzy {
    /// 1-based hunk number.
    pub hunk: usize,
    /// 1-based line of the original file where the hunk was applied.
    pub line: usize,
    /// Character similarity (0 to 1) of the text replaced to the hunk's old lines.
    pub similarity: f64,
}

#[derive(Debug)]
pub(crate) struct Applied {
    pub text: String,
    pub fuzzy: Vec<Fuzzy>,
}

struct Edit<'a> {
    start: usize,
    len: usize,
    order: usize,
    new: &'a [String],
}

/// Applies every hunk of `parsed` to `original`, or fails naming the first hunk that does not
/// match. Line breaks (LF or CRLF) follow the original.
pub(crate) fn apply(original: &str, parsed: &Parsed, threshold: f64) -> Result<Applied, String> {
    let eol = if original.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let had_final_newline = original.ends_with('\n');
    let lines: Vec<&str> = match original.strip_suffix('\n').unwrap_or(original) {
        "" if original.is_empty() => Vec::new(),
        body => body
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect(),
    };
    let mut edits: Vec<Edit<'_>> = Vec::new();
    let mut fuzzy = Vec::new();
    let mut cursor = 0;
    for (order, hunk) in parsed.hunks.iter().enumerate() {
        let used: Vec<(usize, usize)> = edits.iter().map(|e| (e.start, e.len)).collect();
        let len = hunk.old.len();
        let start = if len == 0 {
            let at = hunk.hint.unwrap_or(lines.len()).min(lines.len());
            used.iter()
                .find(|(s, l)| *s < at && at < s + l)
                .map_or(at, |(s, l)| s + l)
        } else {
            let (start, similarity) = place(&lines, hunk, cursor, &used, threshold)?;
            if let Some(similarity) = similarity {
                fuzzy.push(Fuzzy {
                    hunk: order + 1,
                    line: start + 1,
                    similarity,
                });
            }
            start
        };
        cursor = start + len;
        edits.push(Edit {
            start,
            len,
            order,
            new: &hunk.new,
        });
    }
    edits.sort_by_key(|e| (e.start, e.order));
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut at = 0;
    for edit in &edits {
        out.extend_from_slice(&lines[at..edit.start.max(at)]);
        out.extend(edit.new.iter().map(String::as_str));
        at = at.max(edit.start + edit.len);
    }
    out.extend_from_slice(&lines[at.min(lines.len())..]);
    let final_newline = parsed
        .final_newline
        .unwrap_or(had_final_newline || original.is_empty());
    let mut text = out.join(eol);
    if final_newline && !out.is_empty() {
        text.push_str(eol);
    }
    Ok(Applied { text, fuzzy })
}

fn free(used: &[(usize, usize)], start: usize, len: usize) -> bool {
    used.iter()
        .all(|&(s, l)| start + len <= s || s + l <= start)
}

/// Where `hunk` goes: an exact match (nearest the hint, else the first after `cursor`), or the
/// most similar window at or above `threshold` (with its similarity).
fn place(
    lines: &[&str],
    hunk: &Hunk,
    cursor: usize,
    used: &[(usize, usize)],
    threshold: f64,
) -> Result<(usize, Option<f64>), String> {
    let len = hunk.old.len();
    if lines.len() < len {
        return Err(format!(
            "{} does not match: it has {len} old line(s) but the file has only {}",
            hunk.label,
            lines.len()
        ));
    }
    let starts = (0..=lines.len() - len).filter(|&p| free(used, p, len));
    let preference = |p: usize| match hunk.hint {
        Some(hint) => (0, p.abs_diff(hint)),
        None if p >= cursor => (0, p - cursor),
        None => (1, p),
    };
    let exact = starts
        .clone()
        .filter(|&p| lines[p..p + len].iter().zip(&hunk.old).all(|(a, b)| a == b))
        .min_by_key(|&p| preference(p));
    if let Some(p) = exact {
        return Ok((p, None));
    }
    let old_grams: Vec<Vec<u64>> = hunk.old.iter().map(|l| bigrams(l)).collect();
    let file_grams: Vec<Vec<u64>> = lines.iter().map(|l| bigrams(l)).collect();
    let mut quick: Vec<(f64, usize)> = starts
        .map(|p| {
            let sum: f64 = (0..len)
                .map(|k| {
                    dice(
                        &file_grams[p + k],
                        &old_grams[k],
                        lines[p + k],
                        &hunk.old[k],
                    )
                })
                .sum();
            (sum / len as f64, p)
        })
        .collect();
    quick.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(preference(a.1).cmp(&preference(b.1)))
    });
    let wanted = hunk.old.join("\n");
    let best = quick
        .iter()
        .take(CANDIDATES)
        .map(|&(_, p)| {
            let window = lines[p..p + len].join("\n");
            let ratio = f64::from(TextDiff::from_chars(window.as_str(), wanted.as_str()).ratio());
            (ratio, p)
        })
        .max_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(preference(b.1).cmp(&preference(a.1)))
        });
    match best {
        Some((similarity, p)) if similarity >= threshold => Ok((p, Some(round3(similarity)))),
        Some((similarity, p)) => Err(format!(
            "{} does not match the file: the closest text, at line {}, is only {:.0}% similar \
             (fuzzy_threshold is {threshold}); read the file and make the hunk's context and \
             removed lines match it",
            hunk.label,
            p + 1,
            similarity * 100.0
        )),
        None => Err(format!(
            "{} does not match the file: every place it could go is already changed by an \
             earlier hunk",
            hunk.label
        )),
    }
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// The sorted character bigrams of a line without its surrounding whitespace.
fn bigrams(line: &str) -> Vec<u64> {
    let chars: Vec<char> = line.trim().chars().collect();
    let mut grams: Vec<u64> = chars
        .windows(2)
        .map(|w| (u64::from(u32::from(w[0])) << 32) | u64::from(u32::from(w[1])))
        .collect();
    grams.sort_unstable();
    grams
}

/// Dice coefficient of two bigram multisets (lines too short for bigrams: equal or not).
fn dice(a: &[u64], b: &[u64], line_a: &str, line_b: &str) -> f64 {
    if a.is_empty() || b.is_empty() {
        return if line_a.trim() == line_b.trim() {
            1.0
        } else {
            0.0
        };
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * shared as f64 / (a.len() + b.len()) as f64
}
