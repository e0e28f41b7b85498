//! Turns what a user typed into FTS5 match expressions that cannot be parsed as query syntax:
//! every term is a quoted string, so `"`, `*`, `AND`, `(`, `NEAR(` mean themselves. A CJK term
//! can also match with its characters apart (`喝茶` in `喝绿茶`), as a weaker, later pass.

use super::text::word_query;
use hearth_protocol::is_cjk_letter;

/// Characters of a query that are considered; the rest is ignored.
const MAX_QUERY_CHARS: usize = 500;
/// Distinct terms of a query that are considered; the rest are ignored.
const MAX_TERMS: usize = 16;
/// The trigram index cannot match anything shorter.
const TRIGRAM_MIN_CHARS: usize = 3;
/// A CJK run longer than this is a sentence, not a query, and is not matched character by
/// character.
pub(crate) const SCATTERED_MAX_CHARS: usize = 8;

/// The whitespace-separated terms of a query; a message matches when it contains all of them.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Query {
    terms: Vec<String>,
}

impl Query {
    pub(crate) fn parse(input: &str) -> Query {
        let cleaned: String = input
            .chars()
            .take(MAX_QUERY_CHARS)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let mut terms: Vec<String> = Vec::new();
        for term in cleaned.split_whitespace() {
            if terms.len() == MAX_TERMS {
                break;
            }
            if !terms.iter().any(|t| t == term) {
                terms.push(term.to_string());
            }
        }
        Query { terms }
    }

    pub(crate) fn terms(&self) -> impl Iterator<Item = &str> {
        self.terms.iter().map(String::as_str)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// For the word index: each term holding a letter or digit, as a phrase of its tokens (so
    /// `read_file` must appear as `read` then `file`, and `天气很好` as its three bigrams).
    /// `None` when no term has anything to index.
    pub(crate) fn word_match(&self) -> Option<String> {
        let phrases: Vec<String> = self
            .terms
            .iter()
            .filter(|term| term.chars().any(char::is_alphanumeric))
            .map(|term| match word_query(term) {
                (phrase, true) => format!("{} *", quote(&phrase)),
                (phrase, false) => quote(&phrase),
            })
            .collect();
        (!phrases.is_empty()).then(|| phrases.join(" "))
    }

    /// For the trigram index: every term as a quoted substring. `None` when a term is too short
    /// for trigrams (short terms match as whole words only: a two-letter substring is in almost
    /// every message, and filtering for it scans them all), or when every term is CJK only (the
    /// word index already matches those as exact substrings).
    pub(crate) fn substring_match(&self) -> Option<String> {
        let usable = self
            .terms
            .iter()
            .all(|term| term.chars().count() >= TRIGRAM_MIN_CHARS);
        let all_cjk = self
            .terms
            .iter()
            .all(|term| term.chars().all(is_cjk_letter));
        (usable && !all_cjk).then(|| {
            let phrases: Vec<String> = self.terms.iter().map(|term| quote(term)).collect();
            phrases.join(" ")
        })
    }
}

impl Query {
    /// For the word index, the pass after exact matches: each CJK-only term of two to
    /// [`SCATTERED_MAX_CHARS`] characters as all of its characters anywhere in the message
    /// (each the first character of a token, see `search::text`), other terms as in
    /// [`Query::word_match`]. `None` when no term would match differently.
    pub(crate) fn scattered_match(&self) -> Option<String> {
        let scattered = |term: &str| {
            let n = term.chars().count();
            (2..=SCATTERED_MAX_CHARS).contains(&n) && term.chars().all(is_cjk_letter)
        };
        if !self.terms.iter().any(|t| scattered(t)) {
            return None;
        }
        let split: Vec<String> = self
            .terms
            .iter()
            .flat_map(|term| {
                if scattered(term) {
                    term.chars().map(String::from).collect()
                } else {
                    vec![term.clone()]
                }
            })
            .collect();
        Query { terms: split }.word_match()
    }

    /// The terms [`Query::scattered_match`] looks for, for highlighting.
    pub(crate) fn scattered_terms(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for term in &self.terms {
            let pieces: Vec<String> = if term.chars().all(is_cjk_letter) {
                term.chars().map(String::from).collect()
            } else {
                vec![term.clone()]
            };
            for piece in pieces {
                if !out.contains(&piece) {
                    out.push(piece);
                }
            }
        }
        out
    }
}

/// An FTS5 string: everything inside is literal text, a `"` is written twice.
pub(crate) fn quote(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::text::WORD_BREAK;

    #[test]
    fn terms_are_split_deduplicated_and_bounded() {
        let query = Query::parse("  rust\tRust rust\n天气 ");
        assert_eq!(query.terms, ["rust", "Rust", "天气"]);
        assert!(Query::parse(" \t\n ").is_empty());
        let many: String = (0..100).map(|i| format!("w{i} ")).collect();
        assert_eq!(Query::parse(&many).terms.len(), MAX_TERMS);
        let long = "x".repeat(10_000);
        assert_eq!(Query::parse(&long).terms[0].len(), MAX_QUERY_CHARS);
    }

    #[test]
    fn word_match_quotes_every_term() {
        let query = Query::parse(r#"say "hi" NEAR( a*b"#);
        assert_eq!(
            query.word_match().as_deref(),
            Some(r#""say" """hi""" "NEAR(" "a*b""#)
        );
        let cjk = Query::parse("天气很好 好").word_match();
        assert_eq!(
            cjk,
            Some(format!("\"天气{WORD_BREAK}气很{WORD_BREAK}很好\" \"好\" *"))
        );
        assert_eq!(Query::parse(r#"" * ) ("#).word_match(), None);
    }

    #[test]
    fn scattered_match_splits_short_cjk_terms_into_characters() {
        assert_eq!(
            Query::parse("喝茶 tea").scattered_match().as_deref(),
            Some(r#""喝" * "茶" * "tea""#)
        );
        assert_eq!(Query::parse("tea 茶").scattered_match(), None);
        let sentence = "我今天早上喝了一杯绿茶";
        assert_eq!(Query::parse(sentence).scattered_match(), None);
        assert_eq!(
            Query::parse("喝茶 tea").scattered_terms(),
            ["喝", "茶", "tea"]
        );
    }

    #[test]
    fn substring_match_needs_long_terms_and_something_besides_cjk() {
        assert_eq!(
            Query::parse(r#"report a_b "x""#)
                .substring_match()
                .as_deref(),
            Some(r#""report" "a_b" """x""""#)
        );
        assert_eq!(
            Query::parse("天气很好 report").substring_match().as_deref(),
            Some(r#""天气很好" "report""#)
        );
        assert_eq!(Query::parse("report go").substring_match(), None);
        assert_eq!(Query::parse("天气很好 数据库").substring_match(), None);
        assert_eq!(Query::parse("天气 report").substring_match(), None);
    }
}
