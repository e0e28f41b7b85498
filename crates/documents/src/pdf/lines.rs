//! A page's text runs put into lines as `pdftotext` reads them: top to bottom, left to right,
//! a lowered or raised glyph kept in its word, words broken by a hyphen at a line's end joined.

/// One run of text as the page draws it: where its baseline starts and how big its font is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Run {
    pub(crate) text: String,
    pub(crate) x: f32,
    pub(crate) y: f32,
    pub(crate) width: f32,
    pub(crate) size: f32,
    /// Where each character starts (as many as `text` has, or none when the reader gave none).
    pub(crate) starts: Vec<f32>,
}

impl Run {
    fn end(&self) -> f32 {
        self.x + self.width
    }

    /// How much of the two runs' heights (each `size` tall above its baseline) is shared.
    fn overlap(&self, y: f32, size: f32) -> f32 {
        let top = (self.y + self.size).min(y + size);
        let bottom = self.y.max(y);
        top - bottom
    }
}

/// A gap wider than this share of the font size is a space between words.
const WORD_GAP: f32 = 0.12;

/// A run starting this share of its font size left of where the line's text ends overlaps it.
const OVERLAP: f32 = 0.25;

/// The longest run that is put inside the text it overlaps (a kerned logo's letter, an accent).
const INSERTED_CHARS: usize = 3;

/// The text of a page's runs, a line each, lines joined with `\n`.
pub(crate) fn page_text(mut runs: Vec<Run>) -> String {
    runs.retain(|run| !run.text.trim().is_empty());
    runs.sort_by(|a, b| b.y.total_cmp(&a.y).then(a.x.total_cmp(&b.x)));
    let mut lines: Vec<String> = Vec::new();
    let mut line: Vec<Run> = Vec::new();
    // The run that sets the line's baseline: the one with the most characters so far.
    let mut anchor: Option<(f32, f32, usize)> = None;
    for run in runs {
        let joins =
            anchor.is_some_and(|(y, size, _)| run.overlap(y, size) >= 0.5 * run.size.min(size));
        if !joins && !line.is_empty() {
            lines.push(line_text(std::mem::take(&mut line)));
            anchor = None;
        }
        let chars = run.text.chars().count();
        if anchor.is_none_or(|(_, _, most)| chars > most) {
            anchor = Some((run.y, run.size, chars));
        }
        line.push(run);
    }
    if !line.is_empty() {
        lines.push(line_text(line));
    }
    dehyphenated(lines)
}

/// One line's runs, left to right.
fn line_text(mut runs: Vec<Run>) -> String {
    runs.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut text = String::new();
    // Where each character placed so far starts, and the byte it starts at.
    let mut placed: Vec<(f32, usize)> = Vec::new();
    let mut end = f32::MIN;
    let mut last: Option<&Run> = None;
    for run in &runs {
        if last.is_some_and(|prev| {
            prev.text == run.text && (prev.x - run.x).abs() < run.size * OVERLAP
        }) {
            continue; // drawn twice to look bold
        }
        let inside = run.x < end - run.size * OVERLAP;
        if inside && run.text.trim().chars().count() <= INSERTED_CHARS {
            insert(&mut text, &mut placed, run);
            continue;
        }
        let boundary_blank =
            text.ends_with(char::is_whitespace) || run.text.starts_with(char::is_whitespace);
        if !text.is_empty() && !boundary_blank && (inside || run.x - end > run.size * WORD_GAP) {
            text.push(' ');
        }
        place(&mut text, &mut placed, run);
        end = end.max(run.end());
        last = Some(run);
    }
    text.trim().to_string()
}

/// Appends `run`'s text, recording where its characters start.
fn place(text: &mut String, placed: &mut Vec<(f32, usize)>, run: &Run) {
    let count = run.text.chars().count();
    let step = run.width / count.max(1) as f32;
    for (i, (at, _)) in run.text.char_indices().enumerate() {
        let start = match run.starts.get(i) {
            Some(&start) if run.starts.len() == count => start,
            _ => run.x + step * i as f32,
        };
        placed.push((start, text.len() + at));
    }
    text.push_str(&run.text);
}

/// Puts a short `run` that lies inside the line's text where it is drawn, taking the place of
/// a space the reader left there for it (TeX lowers the E of "TeX" into a gap of its own).
fn insert(text: &mut String, placed: &mut [(f32, usize)], run: &Run) {
    let at = placed
        .iter()
        .position(|&(start, _)| start > run.x)
        .unwrap_or(placed.len());
    let mut byte = placed.get(at).map_or(text.len(), |&(_, byte)| byte);
    let mut removed = 0;
    if text[..byte].ends_with(' ') {
        byte -= 1;
        text.remove(byte);
        removed = 1;
    } else if text[byte..].starts_with(' ') {
        text.remove(byte);
        removed = 1;
    }
    let piece = run.text.trim();
    text.insert_str(byte, piece);
    let shift = piece.len() as isize - removed;
    // The removed space's entry now marks the inserted piece; what follows it moves.
    for entry in placed
        .iter_mut()
        .filter(|(_, b)| *b > byte || (*b == byte && removed == 0))
    {
        entry.1 = entry.1.saturating_add_signed(shift);
    }
}

/// Lines joined where a word was broken by a hyphen at the end of one line and goes on in
/// lower case on the next, as `pdftotext` joins them (the next line follows on the same line).
fn dehyphenated(lines: Vec<String>) -> String {
    let mut out = String::new();
    for line in lines {
        if broken_word(&out) && line_starts_lower(&line) {
            out.pop();
        } else if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&line);
    }
    out
}

fn broken_word(text: &str) -> bool {
    let mut tail = text.chars().rev();
    tail.next() == Some('-') && tail.next().is_some_and(char::is_alphabetic)
}

fn line_starts_lower(line: &str) -> bool {
    line.chars().next().is_some_and(char::is_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of `text` at (`x`, `y`) in a 10-point font, each character 5 points wide.
    fn run(text: &str, x: f32, y: f32) -> Run {
        sized(text, x, y, 10.0)
    }

    fn sized(text: &str, x: f32, y: f32, size: f32) -> Run {
        let width = size / 2.0;
        Run {
            text: text.into(),
            x,
            y,
            width: width * text.chars().count() as f32,
            size,
            starts: (0..text.chars().count())
                .map(|i| x + width * i as f32)
                .collect(),
        }
    }

    #[test]
    fn lines_go_top_to_bottom_and_runs_left_to_right_whatever_order_they_are_drawn_in() {
        let runs = vec![
            run("second", 0.0, 688.0),
            run("line", 35.0, 700.0),
            run("first", 0.0, 700.0),
        ];
        assert_eq!(page_text(runs), "first line\nsecond");
    }

    #[test]
    fn a_gap_is_a_space_only_when_it_is_as_wide_as_one() {
        // "Wo" and "rd" kerned 0.5 points apart are one word; 3 points apart are two.
        let runs = vec![
            run("Wo", 0.0, 700.0),
            run("rd", 10.5, 700.0),
            run("next", 23.5, 700.0),
        ];
        assert_eq!(page_text(runs), "Word next");
    }

    #[test]
    fn a_lowered_letter_takes_the_place_the_reader_left_for_it() {
        // pdfTeX's LaTeX logo: "T X" with the E drawn 2.35 points lower between T and X.
        let mut logo = run("T X and", 100.0, 700.0);
        logo.starts = vec![100.0, 106.0, 107.4, 113.0, 118.0, 123.0, 128.0];
        let runs = vec![run("needs LA", 53.0, 700.0), logo, run("E", 105.9, 697.65)];
        assert_eq!(page_text(runs), "needs LA TEX and");
    }

    #[test]
    fn a_raised_footnote_mark_stays_on_its_line() {
        let runs = vec![
            run("extensions", 0.0, 700.0),
            sized("58", 50.0, 703.5, 7.0),
            run("and more", 60.0, 700.0),
            run("below", 0.0, 688.0),
        ];
        assert_eq!(page_text(runs), "extensions58 and more\nbelow");
    }

    #[test]
    fn text_drawn_twice_to_look_bold_is_read_once() {
        let runs = vec![
            run("Bold", 0.0, 700.0),
            run("Bold", 0.4, 700.0),
            run("text", 25.0, 700.0),
        ];
        assert_eq!(page_text(runs), "Bold text");
    }

    #[test]
    fn a_word_broken_at_a_line_end_is_joined_but_a_dash_before_a_capital_is_kept() {
        let runs = vec![
            run("window man-", 0.0, 700.0),
            run("agement is hard -", 0.0, 688.0),
            run("Really", 0.0, 676.0),
        ];
        assert_eq!(page_text(runs), "window management is hard -\nReally");
    }

    #[test]
    fn blank_runs_and_an_empty_page_give_no_text() {
        assert_eq!(page_text(vec![run("   ", 0.0, 700.0)]), "");
        assert_eq!(page_text(Vec::new()), "");
    }
}
