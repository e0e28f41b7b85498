//! Whether two memories contradict each other: they talk about the same thing (at least 60% of
//! their words, or CJK character pairs, shared) yet one negates what the other says or they give
//! different numbers ("drinks 3 cups a day" / "drinks 5 cups a day", "喜欢绿茶" / "不喜欢绿茶").

use std::collections::BTreeSet;

use super::terms::{bigrams, is_stopword};
use hearth_protocol::is_cjk_letter;

/// Share of the words of both memories (Jaccard) from which they are about the same thing.
const SAME_SUBJECT: f64 = 0.6;
/// Memories with fewer words than this say too little to compare.
const MIN_WORDS: usize = 2;

const NEGATION_WORDS: &[&str] = &[
    "no", "not", "never", "none", "nobody", "nothing", "neither", "nor", "without", "dont",
    "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "cant", "cannot", "couldnt", "wont",
    "wouldnt", "shouldnt", "hasnt", "havent", "hadnt",
];

/// Characters that negate in Chinese.
const NEGATION_CHARS: &[char] = &[
    '不', '没', '沒', '别', '別', '无', '無', '非', '未', '勿', '莫',
];

const CHINESE_DIGITS: &[(char, u32)] = &[
    ('零', 0),
    ('〇', 0),
    ('一', 1),
    ('二', 2),
    ('两', 2),
    ('三', 3),
    ('四', 4),
    ('五', 5),
    ('六', 6),
    ('七', 7),
    ('八', 8),
    ('九', 9),
];

fn chinese_digit(c: char) -> Option<u32> {
    CHINESE_DIGITS
        .iter()
        .find(|(d, _)| *d == c)
        .map(|(_, v)| *v)
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || c == '十' || chinese_digit(c).is_some()
}

/// Whether `chars[index]` is part of a number. A lone `一` is not: it is mostly part of a word
/// (`一直` always, `一起` together).
fn numeral_at(chars: &[char], index: usize) -> bool {
    let c = chars[index];
    if c != '一' {
        return is_number_char(c);
    }
    let before = index.checked_sub(1).map(|i| chars[i]);
    let after = chars.get(index + 1).copied();
    before.is_some_and(is_number_char) || after.is_some_and(is_number_char)
}

/// The value of a run of Chinese numerals: digit strings (`二〇二六`) and tens up to 99
/// (`十二`, `二十`, `二十五`); anything else is kept as written.
fn chinese_number(run: &str) -> String {
    let chars: Vec<char> = run.chars().collect();
    let digit = |c: &char| chinese_digit(*c);
    let value = match chars.iter().position(|&c| c == '十') {
        None => chars
            .iter()
            .map(digit)
            .collect::<Option<Vec<u32>>>()
            .map(|ds| ds.iter().map(u32::to_string).collect::<String>()),
        Some(at) if at <= 1 && chars.len() - at <= 2 => {
            let tens = if at == 0 { Some(1) } else { digit(&chars[0]) };
            let ones = chars.get(at + 1).map_or(Some(0), digit);
            tens.zip(ones).map(|(t, o)| (t * 10 + o).to_string())
        }
        Some(_) => None,
    };
    value.unwrap_or_else(|| run.to_string())
}

/// What a memory says, reduced for comparison.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Features {
    /// Lower-case words (a trailing `s` removed) and CJK character pairs, without stopwords,
    /// negations or numbers.
    words: BTreeSet<String>,
    numbers: BTreeSet<String>,
    /// An odd number of negations.
    negated: bool,
}

impl Features {
    pub(crate) fn of(text: &str) -> Features {
        let mut features = Features::default();
        let lowered = text.to_lowercase().replace(['\'', '’'], "");
        let chars: Vec<char> = lowered.chars().chain(std::iter::once(' ')).collect();
        let mut word = String::new();
        let mut number = String::new();
        let mut cjk = String::new();
        for (index, &c) in chars.iter().enumerate() {
            if numeral_at(&chars, index) || (c == '.' && !number.is_empty()) {
                features.flush_word(&mut word);
                features.flush_cjk(&mut cjk);
                number.push(c);
                continue;
            }
            features.flush_number(&mut number);
            match c {
                c if is_cjk_letter(c) => {
                    features.flush_word(&mut word);
                    if NEGATION_CHARS.contains(&c) {
                        features.negated = !features.negated;
                    } else {
                        cjk.push(c);
                    }
                }
                _ if c.is_alphanumeric() => {
                    features.flush_cjk(&mut cjk);
                    word.push(c);
                }
                _ => {
                    features.flush_word(&mut word);
                    features.flush_cjk(&mut cjk);
                }
            }
        }
        features
    }

    fn flush_word(&mut self, word: &mut String) {
        let taken = std::mem::take(word);
        if taken.is_empty() || is_stopword(&taken) {
            return;
        }
        if NEGATION_WORDS.contains(&taken.as_str()) {
            self.negated = !self.negated;
            return;
        }
        let stem = match taken.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => taken,
        };
        self.words.insert(stem);
    }

    fn flush_cjk(&mut self, run: &mut String) {
        let taken = std::mem::take(run);
        if !taken.is_empty() {
            self.words.extend(bigrams(&taken));
        }
    }

    fn flush_number(&mut self, number: &mut String) {
        let taken = std::mem::take(number);
        let trimmed = taken.trim_end_matches('.');
        if trimmed.is_empty() {
            return;
        }
        let value = if trimmed.chars().all(|c| c.is_ascii_digit() || c == '.') {
            trimmed.to_string()
        } else {
            chinese_number(trimmed)
        };
        self.numbers.insert(value);
    }
}

/// Why `new` contradicts `old`, or `None` when it does not.
pub(crate) fn contradiction(old: &str, new: &str) -> Option<String> {
    let (a, b) = (Features::of(old), Features::of(new));
    if a.words.len() < MIN_WORDS || b.words.len() < MIN_WORDS {
        return None;
    }
    let shared = a.words.intersection(&b.words).count();
    let union = a.words.union(&b.words).count();
    // Lossless for any realistic word count.
    #[allow(clippy::cast_precision_loss)]
    let similarity = shared as f64 / union as f64;
    if similarity < SAME_SUBJECT {
        return None;
    }
    if a.negated != b.negated {
        return Some("one memory negates the other about the same subject".to_string());
    }
    if !a.numbers.is_empty() && !b.numbers.is_empty() && a.numbers != b.numbers {
        let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
        return Some(format!(
            "different numbers about the same subject ({} vs {})",
            list(&a.numbers),
            list(&b.numbers)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn features_reduce_english() {
        let f = Features::of("The user doesn't drink 3.5 cups of Coffee, ever.");
        assert_eq!(f.words, set(&["user", "drink", "cup", "coffee", "ever"]));
        assert_eq!(f.numbers, set(&["3.5"]));
        assert!(f.negated);
        assert!(!Features::of("not never tea").negated, "double negation");
    }

    #[test]
    fn features_reduce_chinese() {
        let f = Features::of("用户不喜欢喝绿茶，每天三杯");
        assert_eq!(
            f.words,
            set(&["用户", "户喜", "喜欢", "欢喝", "喝绿", "绿茶", "每天", "杯"])
        );
        assert_eq!(f.numbers, set(&["3"]));
        assert!(f.negated);
    }

    #[test]
    fn chinese_numbers_read_as_values() {
        for (run, value) in [
            ("三", "3"),
            ("十", "10"),
            ("十二", "12"),
            ("二十", "20"),
            ("二十五", "25"),
            ("二〇二六", "2026"),
            ("三十十", "三十十"),
        ] {
            assert_eq!(chinese_number(run), value, "{run}");
        }
    }

    #[test]
    fn different_numbers_on_one_subject_contradict() {
        let reason = contradiction(
            "The user drinks 3 cups of coffee a day",
            "User drinks 5 cups of coffee daily",
        );
        assert_eq!(
            reason.as_deref(),
            Some("different numbers about the same subject (3 vs 5)")
        );
        assert!(contradiction("用户每天喝3杯咖啡", "用户每天喝五杯咖啡").is_some());
        assert!(contradiction("用户每天喝3杯咖啡", "用户每天喝三杯咖啡").is_none());
        assert!(
            contradiction("用户一直喜欢喝咖啡", "用户一直喜欢喝咖啡，每天两杯").is_none(),
            "a lone 一 is a word, not a number"
        );
    }

    #[test]
    fn negation_on_one_subject_contradicts() {
        assert_eq!(
            contradiction("用户喜欢喝绿茶", "用户不喜欢喝绿茶").as_deref(),
            Some("one memory negates the other about the same subject")
        );
        assert!(contradiction(
            "prefers dark roast coffee",
            "doesn't prefer dark roast coffee"
        )
        .is_some());
    }

    #[test]
    fn unrelated_refined_or_tiny_memories_do_not() {
        assert!(contradiction("prefers dark roast coffee", "lives in Berlin, not Paris").is_none());
        assert!(contradiction(
            "prefers dark roast coffee",
            "prefers dark roast coffee beans"
        )
        .is_none());
        assert!(contradiction("has 2 cats", "has cats").is_none());
        assert!(
            contradiction("tea", "no tea").is_none(),
            "too short to compare"
        );
        assert!(contradiction("", "").is_none());
    }
}
