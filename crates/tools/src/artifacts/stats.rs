//! What `artifact_validate` measures: characters, CJK characters, English words, lines,
//! paragraphs and Markdown headings, and whether Markdown, JSON or CSV/TSV is well-formed.

use hearth_protocol::is_cjk_ideograph;
use serde::Serialize;

/// The counts and the format check of one artifact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArtifactStats {
    pub characters: u64,
    pub cjk_characters: u64,
    pub english_words: u64,
    pub lines: u64,
    pub paragraphs: u64,
    pub headings: u64,
    pub format: FormatCheck,
}

/// The format the file name says, and the first thing wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormatCheck {
    /// `markdown`, `json`, `csv`, `tsv` or `text` (not checked).
    pub kind: &'static str,
    pub error: Option<FormatError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormatError {
    /// 1-based.
    pub line: u64,
    pub message: String,
}

/// Measures `content`, checking the format `filename`'s extension names.
pub fn measure(filename: &str, content: &str) -> ArtifactStats {
    let extension = filename
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_lowercase())
        .unwrap_or_default();
    let format = match extension.as_str() {
        "md" | "markdown" => check("markdown", markdown_error(content)),
        "json" => check("json", json_error(content)),
        "csv" => check("csv", delimited_error(content, ',')),
        "tsv" => check("tsv", delimited_error(content, '\t')),
        _ => check("text", None),
    };
    let mut paragraphs = 0;
    let mut in_paragraph = false;
    for line in content.lines() {
        let blank = line.trim().is_empty();
        if !blank && !in_paragraph {
            paragraphs += 1;
        }
        in_paragraph = !blank;
    }
    ArtifactStats {
        characters: content.chars().count() as u64,
        cjk_characters: content.chars().filter(|&c| is_cjk_ideograph(c)).count() as u64,
        english_words: english_words(content),
        lines: content.lines().count() as u64,
        paragraphs,
        headings: headings(content),
        format,
    }
}

fn check(kind: &'static str, error: Option<FormatError>) -> FormatCheck {
    FormatCheck { kind, error }
}

fn error_at(line: usize, message: impl Into<String>) -> Option<FormatError> {
    Some(FormatError {
        line: line as u64,
        message: message.into(),
    })
}

/// Runs of ASCII letters (an apostrophe or hyphen inside a word keeps it one word).
fn english_words(content: &str) -> u64 {
    let mut words = 0;
    let mut in_word = false;
    let mut previous = ' ';
    for c in content.chars() {
        let letter = c.is_ascii_alphabetic();
        let joiner = (c == '\'' || c == '-') && previous.is_ascii_alphabetic();
        if letter && !in_word {
            words += 1;
        }
        in_word = letter || (in_word && joiner);
        previous = c;
    }
    words
}

/// A fence line's marker (three or more backticks or tildes), if it is one.
fn fence(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start();
    let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = trimmed.chars().take_while(|c| *c == marker).count();
    (run >= 3).then_some((marker, run))
}

/// ATX headings (`#` to `######` then a space) outside code fences.
fn headings(content: &str) -> u64 {
    let mut open: Option<(char, usize)> = None;
    let mut count = 0;
    for line in content.lines() {
        if let Some((marker, run)) = fence(line) {
            open = match open {
                Some((m, r)) if m == marker && run >= r => None,
                None => Some((marker, run)),
                still => still,
            };
            continue;
        }
        let hashes = line.chars().take_while(|c| *c == '#').count();
        let rest = &line[hashes..];
        if open.is_none() && (1..=6).contains(&hashes) && (rest.is_empty() || rest.starts_with(' '))
        {
            count += 1;
        }
    }
    count
}

/// An unclosed code fence or HTML comment.
fn markdown_error(content: &str) -> Option<FormatError> {
    let mut fence_open: Option<(usize, char, usize)> = None;
    let mut comment_open: Option<usize> = None;
    for (index, line) in content.lines().enumerate() {
        let number = index + 1;
        if let Some((marker, run)) = fence(line) {
            fence_open = match fence_open {
                Some((_, m, r)) if m == marker && run >= r => None,
                None => Some((number, marker, run)),
                still => still,
            };
            continue;
        }
        if fence_open.is_some() {
            continue;
        }
        let mut rest = line;
        loop {
            match comment_open {
                None => match rest.find("<!--") {
                    Some(at) => {
                        comment_open = Some(number);
                        rest = &rest[at + 4..];
                    }
                    None => break,
                },
                Some(_) => match rest.find("-->") {
                    Some(at) => {
                        comment_open = None;
                        rest = &rest[at + 3..];
                    }
                    None => break,
                },
            }
        }
    }
    if let Some((line, marker, run)) = fence_open {
        let fence: String = std::iter::repeat_n(marker, run).collect();
        return error_at(
            line,
            format!("the code block opened here with {fence} is never closed"),
        );
    }
    comment_open.and_then(|line| error_at(line, "the HTML comment opened here is never closed"))
}

fn json_error(content: &str) -> Option<FormatError> {
    match serde_json::from_str::<serde_json::Value>(content) {
        Ok(_) => None,
        Err(e) => error_at(e.line(), format!("{e}")),
    }
}

/// Unterminated quotes, text after a closing quote, and rows whose field count differs from
/// the first row's.
fn delimited_error(content: &str, delimiter: char) -> Option<FormatError> {
    let mut line = 1usize;
    let mut row_start = 1usize;
    let mut fields = 1usize;
    let mut expected: Option<usize> = None;
    let mut quoted = false;
    let mut quote_line = 0usize;
    let mut after_quote = false;
    let mut field_start = true;
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                }
                '"' => {
                    quoted = false;
                    after_quote = true;
                }
                '\n' => line += 1,
                _ => {}
            }
            continue;
        }
        match c {
            '"' if field_start => {
                quoted = true;
                quote_line = line;
                field_start = false;
            }
            c if c == delimiter => {
                fields += 1;
                field_start = true;
                after_quote = false;
            }
            '\r' => {}
            '\n' => {
                if let Some(error) = row_end(&mut expected, fields, row_start) {
                    return Some(error);
                }
                line += 1;
                row_start = line;
                fields = 1;
                field_start = true;
                after_quote = false;
            }
            other if after_quote => {
                return error_at(
                    line,
                    format!(
                        "`{other}` follows a closing quote; a quoted field must end at a delimiter"
                    ),
                );
            }
            _ => field_start = false,
        }
    }
    if quoted {
        return error_at(quote_line, "the quoted field opened here is never closed");
    }
    let empty_last = field_start && fields == 1;
    if empty_last {
        return None;
    }
    row_end(&mut expected, fields, row_start)
}

/// Checks a finished row's field count against the first row's.
fn row_end(expected: &mut Option<usize>, fields: usize, row: usize) -> Option<FormatError> {
    match *expected {
        None => {
            *expected = Some(fields);
            None
        }
        Some(want) if want != fields => error_at(
            row,
            format!("this row has {fields} fields; the first row has {want}"),
        ),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn counts_mixed_chinese_and_english_markdown() {
        let text = "# 报告 Report\n\n今天天气很好。It's a well-known fact.\n\n## 第二节\n```\n# not a heading\n```\n";
        let stats = measure("r.md", text);
        assert_eq!(stats.headings, 2);
        assert_eq!(stats.cjk_characters, 11);
        assert_eq!(stats.english_words, 8);
        assert_eq!(stats.lines, 8);
        assert_eq!(stats.paragraphs, 3);
        assert_eq!(stats.characters, text.chars().count() as u64);
        assert_eq!(stats.format.error, None);
    }

    #[test]
    fn malformed_formats_name_the_first_errors_line() {
        let fence = measure("a.md", "ok\n\n```rust\nfn main() {}\n");
        assert_eq!(fence.format.error.unwrap().line, 3);
        let comment = measure("a.md", "a\n<!-- note\nb\n");
        assert_eq!(comment.format.error.unwrap().line, 2);
        let json = measure("a.json", "{\n  \"a\": 1,\n  \"b\": \n}\n");
        assert_eq!(json.format.error.unwrap().line, 4);
        assert_eq!(measure("a.json", "{\"a\": [1, 2]}").format.error, None);
        let rows = measure("a.csv", "a,b,c\n1,2,3\n4,5\n");
        let error = rows.format.error.unwrap();
        assert_eq!(error.line, 3, "{error:?}");
        assert!(error.message.contains("2 fields"), "{error:?}");
        let open = measure("a.csv", "a,b\n\"x,1\n2,3\n");
        assert_eq!(open.format.error.unwrap().line, 2);
        let multiline = measure(
            "a.csv",
            "a,b\n\"line one\nline two\",2\n3,\"say \"\"hi\"\"\"\n",
        );
        assert_eq!(multiline.format.error, None);
        assert_eq!(measure("a.tsv", "a\tb\n1\t2").format.error, None);
        assert_eq!(measure("a.txt", "```").format.kind, "text");
    }
}
