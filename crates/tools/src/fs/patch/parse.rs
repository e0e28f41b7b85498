//! Reading a patch: a unified diff of one file (lenient about hunk line counts and blank
//! context lines, as models write them) or SEARCH/REPLACE blocks.

/// One change: `old` lines to find, `new` lines to put there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    /// How the hunk is named in messages (`@@ -3,4 +3,5 @@`, `SEARCH/REPLACE block 2`).
    pub label: String,
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// Where the diff says the old lines start (0-based); for a pure insertion, the index
    /// to insert at.
    pub hint: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub hunks: Vec<Hunk>,
    /// Whether the file ends with a line break afterwards, when the patch says so.
    pub final_newline: Option<bool>,
}

/// Parses `text` as SEARCH/REPLACE blocks when it has a `<<<<<<< SEARCH` line, else as a
/// unified diff. Errors say what is wrong, for the `patch` argument.
pub(crate) fn parse(text: &str) -> Result<Parsed, String> {
    let lines: Vec<&str> = text.lines().collect();
    let parsed = if is_blocks(text) {
        blocks(&lines)?
    } else if lines.iter().any(|l| l.starts_with("@@")) {
        unified(&lines)?
    } else {
        return Err(
            "is neither a unified diff (no `@@` hunk header) nor SEARCH/REPLACE blocks \
             (`<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`)"
                .to_string(),
        );
    };
    if parsed.hunks.is_empty() {
        return Err("contains no change".to_string());
    }
    Ok(parsed)
}

/// Whether `text` is written as SEARCH/REPLACE blocks (it has a `<<<<<<< SEARCH` line).
pub(crate) fn is_blocks(text: &str) -> bool {
    text.lines().any(|l| is_marker(l, '<', "SEARCH"))
}

/// `<<<<<<< SEARCH`, `>>>>>>> REPLACE` (5 to 9 marker characters) or `=======` (word empty).
fn is_marker(line: &str, marker: char, word: &str) -> bool {
    let line = line.trim_end();
    let body = line.trim_start_matches(marker);
    let count = line.len() - body.len();
    (5..=9).contains(&count) && body.trim() == word && (word.is_empty() || body.starts_with(' '))
}

fn blocks(lines: &[&str]) -> Result<Parsed, String> {
    enum State {
        Outside,
        Search,
        Replace,
    }
    let mut state = State::Outside;
    let mut hunks = Vec::new();
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for line in lines {
        match state {
            State::Outside if is_marker(line, '<', "SEARCH") => state = State::Search,
            State::Outside => {}
            State::Search if is_marker(line, '=', "") => state = State::Replace,
            State::Search => old.push(line.trim_end_matches('\r').to_string()),
            State::Replace if is_marker(line, '>', "REPLACE") => {
                hunks.push(Hunk {
                    label: format!("SEARCH/REPLACE block {}", hunks.len() + 1),
                    old: std::mem::take(&mut old),
                    new: std::mem::take(&mut new),
                    hint: None,
                });
                state = State::Outside;
            }
            State::Replace => new.push(line.trim_end_matches('\r').to_string()),
        }
    }
    match state {
        State::Outside => Ok(Parsed {
            hunks,
            final_newline: None,
        }),
        State::Search => Err(format!(
            "SEARCH/REPLACE block {} has no `=======` line",
            hunks.len() + 1
        )),
        State::Replace => Err(format!(
            "SEARCH/REPLACE block {} is not closed with `>>>>>>> REPLACE`",
            hunks.len() + 1
        )),
    }
}

/// The old start and count of a `@@ -a,b +c,d @@` header (numbers optional: `@@ @@` works).
fn header(line: &str) -> Option<(usize, usize)> {
    let old = line.strip_prefix("@@")?.trim_start().strip_prefix('-')?;
    let range = old.split_whitespace().next()?;
    let (start, count) = match range.split_once(',') {
        Some((start, count)) => (start.parse().ok()?, count.parse().ok()?),
        None => (range.parse().ok()?, 1),
    };
    Some((start, count))
}

fn unified(lines: &[&str]) -> Result<Parsed, String> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut files = 0;
    let mut in_hunk = false;
    let mut final_newline = None;
    let mut last_sign = ' ';
    // Bare empty lines at the end of a hunk: blank context or just spacing; dropped.
    let mut blank_tail = 0;
    for (index, raw) in lines.iter().enumerate() {
        let line = raw.trim_end_matches('\r');
        let next = lines.get(index + 1).copied().unwrap_or_default();
        if line.starts_with("--- ") && next.starts_with("+++ ") {
            drop_blank_tail(&mut hunks, std::mem::take(&mut blank_tail));
            files += 1;
            if files > 1 {
                return Err("changes more than one file; patch takes one file per call".into());
            }
            in_hunk = false;
            continue;
        }
        if line.starts_with("diff ") {
            // `diff --git a/x b/x`: a file section starts; its `---`/`+++` lines follow.
            drop_blank_tail(&mut hunks, std::mem::take(&mut blank_tail));
            in_hunk = false;
            continue;
        }
        if line.starts_with("@@") {
            drop_blank_tail(&mut hunks, std::mem::take(&mut blank_tail));
            let hint = header(line).map(|(start, count)| {
                if count == 0 {
                    start
                } else {
                    start.saturating_sub(1)
                }
            });
            hunks.push(Hunk {
                label: format!("hunk {} ({})", hunks.len() + 1, line.trim()),
                old: Vec::new(),
                new: Vec::new(),
                hint,
            });
            in_hunk = true;
            continue;
        }
        let Some(hunk) = hunks.last_mut().filter(|_| in_hunk) else {
            continue; // `diff --git`, `index`, `+++` and other text before a hunk
        };
        let (sign, body) = match line.chars().next() {
            None => (' ', ""),
            Some(c) => (c, &line[c.len_utf8()..]),
        };
        blank_tail = if line.is_empty() { blank_tail + 1 } else { 0 };
        match sign {
            ' ' => {
                hunk.old.push(body.to_string());
                hunk.new.push(body.to_string());
            }
            '-' => hunk.old.push(body.to_string()),
            '+' => hunk.new.push(body.to_string()),
            '\\' => {
                // "\ No newline at end of file" after the line it is about.
                final_newline = match last_sign {
                    '-' => final_newline.or(Some(true)),
                    _ => Some(false),
                };
                continue;
            }
            _ => {
                return Err(format!(
                    "line {} is not a diff line (hunk lines start with ' ', '-' or '+'): {:?}",
                    index + 1,
                    line.chars().take(80).collect::<String>()
                ))
            }
        }
        last_sign = sign;
    }
    drop_blank_tail(&mut hunks, blank_tail);
    hunks.retain(|h| !(h.old.is_empty() && h.new.is_empty()));
    Ok(Parsed {
        hunks,
        final_newline,
    })
}

fn drop_blank_tail(hunks: &mut [Hunk], count: usize) {
    if let Some(hunk) = hunks.last_mut() {
        for _ in 0..count {
            hunk.old.pop();
            hunk.new.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_blank_lines_ending_a_hunk_are_dropped() {
        let parsed = parse("@@ -1,2 +1,2 @@\n a\n-b\n+c\n\n\n@@ -9 +9 @@\n-x\n+y\n\n");
        let hunks = parsed.map(|p| p.hunks).unwrap_or_default();
        assert_eq!(hunks.len(), 2);
        assert_eq!(
            (hunks[0].old.clone(), hunks[0].new.clone()),
            (vec!["a".into(), "b".into()], vec!["a".into(), "c".into()])
        );
        assert_eq!(
            (hunks[1].old.clone(), hunks[1].hint),
            (vec!["x".to_string()], Some(8))
        );
    }

    #[test]
    fn headers_give_the_old_start() {
        assert_eq!(header("@@ -3,4 +3,5 @@ fn main"), Some((3, 4)));
        assert_eq!(header("@@ -7 +7 @@"), Some((7, 1)));
        assert_eq!(header("@@ -0,0 +1,2 @@"), Some((0, 0)));
        assert_eq!(header("@@ @@"), None);
    }

    #[test]
    fn markers_allow_five_to_nine_characters() {
        assert!(is_marker("<<<<<<< SEARCH", '<', "SEARCH"));
        assert!(is_marker("<<<<< SEARCH  ", '<', "SEARCH"));
        assert!(!is_marker("<<<< SEARCH", '<', "SEARCH"));
        assert!(!is_marker("<<<<<<<SEARCH", '<', "SEARCH"));
        assert!(is_marker("=======", '=', ""));
        assert!(!is_marker("======= x", '=', ""));
    }

    #[test]
    fn a_missing_newline_marker_after_an_added_line_drops_the_final_newline() {
        let parsed = parse("@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n");
        assert_eq!(parsed.map(|p| p.final_newline), Ok(Some(false)));
        let parsed = parse("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n");
        assert_eq!(parsed.map(|p| p.final_newline), Ok(Some(true)));
    }
}
