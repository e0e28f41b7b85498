//! Tests of snippet building.

use super::*;

fn words(terms: &[&str], text: &str) -> String {
    Highlighter::new(MatchMode::Words, terms.iter().copied()).snippet(text)
}

fn substrings(terms: &[&str], text: &str) -> String {
    Highlighter::new(MatchMode::Substrings, terms.iter().copied()).snippet(text)
}

#[test]
fn word_mode_marks_whole_words_only() {
    assert_eq!(
        words(&["report"], "Reports: one REPORT."),
        "Reports: one [REPORT]."
    );
    assert_eq!(
        words(&["read_file"], "call read_file now"),
        "call [read]_[file] now"
    );
    assert_eq!(words(&["a_b"], "a banana a_b"), "[a] banana [a]_[b]");
    assert_eq!(words(&["天气"], "今天天气很好"), "今天[天气]很好");
    assert_eq!(words(&["rust", "天气"], "用Rust查天气"), "用[Rust]查[天气]");
}

#[test]
fn substring_mode_marks_anywhere() {
    assert_eq!(
        substrings(&["port"], "Reports and ports"),
        "Re[port]s and [port]s"
    );
    assert_eq!(substrings(&["==>"], "a ==> b"), "a [==>] b");
    // The longer of two pieces starting at one place wins.
    assert_eq!(substrings(&["rep", "report"], "report"), "[report]");
}

#[test]
fn long_text_is_cut_around_the_first_match_on_one_line() {
    let text = format!(
        "{}\nthe needle\nis here\t{}",
        "x ".repeat(200),
        "y ".repeat(200)
    );
    let snippet = words(&["needle"], &text);
    assert!(snippet.starts_with("… x x"), "{snippet}");
    assert!(snippet.contains("x the [needle] is here y"), "{snippet}");
    assert!(snippet.ends_with('…'), "{snippet}");
    assert!(snippet.chars().count() <= SNIPPET_CHARS + 6, "{snippet}");
}

#[test]
fn without_a_visible_match_the_start_is_shown() {
    assert_eq!(words(&["cafe"], "un café noir"), "un café noir");
    let long = "word ".repeat(100);
    let snippet = words(&["missing"], &long);
    assert!(
        snippet.starts_with("word word") && snippet.ends_with('…'),
        "{snippet}"
    );
    assert_eq!(words(&["x"], ""), "");
    assert_eq!(words(&[], "plain"), "plain");
}

#[test]
fn many_matches_in_a_huge_text_stay_fast() {
    let text = "天气 weather ".repeat(100_000);
    let started = std::time::Instant::now();
    let snippet = words(&["天气", "weather"], &text);
    assert!(snippet.starts_with("[天气] [weather] [天气]"), "{snippet}");
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}
