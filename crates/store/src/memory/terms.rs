//! Any-term queries for memories and session summaries: each word, and each pair of adjacent CJK
//! characters (a bigram token of the word index, see `search::text`), is an FTS5 phrase, and a
//! row matches when it holds any of them (bm25 ranks rows holding more, and rarer, terms first).
//! Written for recall from natural text such as a user's message, where requiring every word
//! would find nothing. A short CJK run can also match with its characters apart (`喝茶` in
//! `我喜欢喝绿茶`), a weaker alternative searched last.

use crate::search::query::{quote, Query, SCATTERED_MAX_CHARS};
use crate::search::text::word_query;
use hearth_protocol::is_cjk_letter;

/// Phrases one query contributes at most (a long CJK sentence yields one per character pair).
const MAX_PHRASES: usize = 64;
/// The trigram index cannot match anything shorter.
const TRIGRAM_MIN_CHARS: usize = 3;

/// English words too common to say what a text is about. A query made only of them still
/// searches for them.
const STOPWORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "do",
    "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "is",
    "it", "its", "me", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them",
    "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "will",
    "with", "you", "your",
];

/// Whether `word` (lower case) is one of [`STOPWORDS`].
pub(crate) fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// A piece of a whitespace-separated term: a run of CJK characters or a run of anything else.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Segment<'a> {
    Cjk(&'a str),
    Other(&'a str),
}

/// Splits `term` into alternating CJK and non-CJK runs.
pub(crate) fn segments(term: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut current: Option<bool> = None;
    for (index, c) in term.char_indices() {
        let cjk = is_cjk_letter(c);
        if current.is_some_and(|previous| previous != cjk) {
            out.push(segment(&term[start..index], !cjk));
            start = index;
        }
        current = Some(cjk);
    }
    if let Some(cjk) = current {
        out.push(segment(&term[start..], cjk));
    }
    out
}

fn segment(text: &str, cjk: bool) -> Segment<'_> {
    if cjk {
        Segment::Cjk(text)
    } else {
        Segment::Other(text)
    }
}

/// Overlapping pairs of characters of a CJK run (the run itself when it has one character).
pub(crate) fn bigrams(run: &str) -> Vec<String> {
    let chars: Vec<char> = run.chars().collect();
    if chars.len() < 2 {
        return vec![run.to_string()];
    }
    chars.windows(2).map(|pair| pair.iter().collect()).collect()
}

/// The FTS5 match expressions of a query.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct AnyTerms {
    words: Vec<String>,
    substrings: Vec<String>,
    /// Each short CJK run as all of its characters, anywhere.
    scattered: Vec<String>,
}

impl AnyTerms {
    pub(crate) fn parse(input: &str) -> AnyTerms {
        let query = Query::parse(input);
        // (phrase for the word index, trigram term if long enough, is a stopword)
        let mut pieces: Vec<(String, Option<String>, bool)> = Vec::new();
        let mut scattered = Vec::new();
        for term in query.terms() {
            for piece in segments(term) {
                match piece {
                    Segment::Cjk(run) => {
                        let n = run.chars().count();
                        if (2..=SCATTERED_MAX_CHARS).contains(&n) {
                            let all: Vec<String> =
                                run.chars().map(|c| word_phrase(&c.to_string())).collect();
                            push_new(&mut scattered, format!("({})", all.join(" AND ")));
                        }
                        pieces.extend(
                            bigrams(run)
                                .into_iter()
                                .map(|pair| (word_phrase(&pair), None, false)),
                        )
                    }
                    Segment::Other(text) if text.chars().any(char::is_alphanumeric) => {
                        let long = text.chars().count() >= TRIGRAM_MIN_CHARS;
                        pieces.push((
                            word_phrase(text),
                            long.then(|| quote(text)),
                            is_stopword(&text.to_lowercase()),
                        ));
                    }
                    Segment::Other(_) => {}
                }
            }
        }
        if pieces.iter().any(|(_, _, stop)| !stop) {
            pieces.retain(|(_, _, stop)| !stop);
        }
        scattered.truncate(MAX_PHRASES);
        let mut terms = AnyTerms {
            words: Vec::new(),
            substrings: Vec::new(),
            scattered,
        };
        for (word, substring, _) in pieces {
            if terms.words.len() == MAX_PHRASES {
                break;
            }
            push_new(&mut terms.words, word);
            if let Some(substring) = substring {
                push_new(&mut terms.substrings, substring);
            }
        }
        terms
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// For the word index: any of the phrases.
    pub(crate) fn word_match(&self) -> Option<String> {
        (!self.words.is_empty()).then(|| self.words.join(" OR "))
    }

    /// For the trigram index: any of the non-CJK terms of three characters or more (CJK text
    /// is matched exactly by the word index already).
    pub(crate) fn substring_match(&self) -> Option<String> {
        (!self.substrings.is_empty()).then(|| self.substrings.join(" OR "))
    }

    /// For the word index, last: any short CJK run with its characters apart.
    pub(crate) fn scattered_match(&self) -> Option<String> {
        (!self.scattered.is_empty()).then(|| self.scattered.join(" OR "))
    }
}

/// The word-index phrase of one piece: a word, a CJK pair (one bigram token), or a single CJK
/// character (a prefix of the bigrams starting with it).
fn word_phrase(piece: &str) -> String {
    match word_query(piece) {
        (phrase, true) => format!("{} *", quote(&phrase)),
        (phrase, false) => quote(&phrase),
    }
}

fn push_new(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_alternate_scripts() {
        assert_eq!(
            segments("Rust的性能ok"),
            [
                Segment::Other("Rust"),
                Segment::Cjk("的性能"),
                Segment::Other("ok")
            ]
        );
        assert_eq!(segments("绿茶"), [Segment::Cjk("绿茶")]);
        assert_eq!(segments(""), []);
    }

    #[test]
    fn bigrams_cover_a_run() {
        assert_eq!(bigrams("喜欢喝"), ["喜欢", "欢喝"]);
        assert_eq!(bigrams("茶"), ["茶"]);
    }

    #[test]
    fn words_and_cjk_pairs_are_alternatives() {
        let terms = AnyTerms::parse("coffee 喜欢喝 a_b 茶");
        assert_eq!(
            terms.word_match().as_deref(),
            Some("\"coffee\" OR \"喜欢\" OR \"欢喝\" OR \"a_b\" OR \"茶\" *")
        );
        assert_eq!(
            terms.substring_match().as_deref(),
            Some("\"coffee\" OR \"a_b\"")
        );
    }

    #[test]
    fn short_cjk_runs_also_match_with_their_characters_apart() {
        let terms = AnyTerms::parse("喝茶 coffee 绿");
        assert_eq!(
            terms.scattered_match().as_deref(),
            Some("(\"喝\" * AND \"茶\" *)")
        );
        assert!(AnyTerms::parse("coffee 茶").scattered_match().is_none());
        assert!(AnyTerms::parse("我今天早上喝了一杯绿茶")
            .scattered_match()
            .is_none());
    }

    #[test]
    fn stopwords_are_dropped_unless_nothing_else_is_left() {
        let terms = AnyTerms::parse("what is the coffee I like");
        assert_eq!(
            terms.word_match().as_deref(),
            Some("\"coffee\" OR \"like\"")
        );
        let only = AnyTerms::parse("The is");
        assert_eq!(only.word_match().as_deref(), Some("\"The\" OR \"is\""));
    }

    #[test]
    fn syntax_is_quoted_and_punctuation_ignored() {
        let terms = AnyTerms::parse(r#"NEAR( "x" ， 。 *"#);
        assert_eq!(terms.word_match().as_deref(), Some(r#""NEAR(" OR """x""""#));
        assert!(AnyTerms::parse(" ，。* ").is_empty());
        assert!(AnyTerms::parse("").word_match().is_none());
    }

    #[test]
    fn long_sentences_are_bounded() {
        let sentence: String = ('\u{4E00}'..='\u{4FFF}').take(400).collect();
        let terms = AnyTerms::parse(&sentence);
        assert_eq!(terms.words.len(), MAX_PHRASES);
        assert!(terms.words.len() <= MAX_PHRASES);
        assert!(terms.substring_match().is_none());
    }
}
