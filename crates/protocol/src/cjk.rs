//! Which characters are CJK, and the rough token count of a text that counts them apart.

/// What a range of [`CJK_RANGES`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Han ideographs.
    Ideograph,
    /// Hiragana and Katakana.
    Kana,
    Bopomofo,
    /// Hangul syllables and Jamo.
    Hangul,
    /// Punctuation, symbols and fullwidth forms used with the scripts above.
    Symbol,
}

/// Every CJK character, by range, in ascending order. The UI's `estimateTokens` spells out
/// the same ranges.
const CJK_RANGES: [(char, char, Kind); 21] = [
    ('\u{1100}', '\u{11FF}', Kind::Hangul),    // Hangul Jamo
    ('\u{3000}', '\u{303F}', Kind::Symbol),    // CJK symbols and punctuation
    ('\u{3040}', '\u{30FF}', Kind::Kana),      // Hiragana, Katakana
    ('\u{3100}', '\u{312F}', Kind::Bopomofo),  // Bopomofo
    ('\u{3130}', '\u{318F}', Kind::Hangul),    // Hangul compatibility Jamo
    ('\u{3190}', '\u{319F}', Kind::Symbol),    // Kanbun
    ('\u{31A0}', '\u{31BF}', Kind::Bopomofo),  // Bopomofo extended
    ('\u{31C0}', '\u{31EF}', Kind::Symbol),    // CJK strokes
    ('\u{31F0}', '\u{31FF}', Kind::Kana),      // Katakana phonetic extensions
    ('\u{3200}', '\u{33FF}', Kind::Symbol),    // enclosed CJK letters and months, CJK compatibility
    ('\u{3400}', '\u{4DBF}', Kind::Ideograph), // CJK unified ideographs extension A
    ('\u{4E00}', '\u{9FFF}', Kind::Ideograph), // CJK unified ideographs
    ('\u{A960}', '\u{A97F}', Kind::Hangul),    // Hangul Jamo extended-A
    ('\u{AC00}', '\u{D7FF}', Kind::Hangul),    // Hangul syllables, Hangul Jamo extended-B
    ('\u{F900}', '\u{FAFF}', Kind::Ideograph), // CJK compatibility ideographs
    ('\u{FF00}', '\u{FF65}', Kind::Symbol),    // fullwidth ASCII, halfwidth CJK punctuation
    ('\u{FF66}', '\u{FF9F}', Kind::Kana),      // halfwidth Katakana
    ('\u{FFA0}', '\u{FFDF}', Kind::Hangul),    // halfwidth Hangul
    ('\u{FFE0}', '\u{FFEF}', Kind::Symbol),    // fullwidth signs, halfwidth forms
    // Planes 2 and 3 (the Supplementary and Tertiary Ideographic Planes): extensions B–J and
    // the compatibility ideographs supplement.
    ('\u{20000}', '\u{2FFFF}', Kind::Ideograph),
    ('\u{30000}', '\u{3FFFF}', Kind::Ideograph),
];

fn kind(c: char) -> Option<Kind> {
    if c < CJK_RANGES[0].0 {
        return None;
    }
    CJK_RANGES
        .iter()
        .find(|(first, last, _)| (*first..=*last).contains(&c))
        .map(|(_, _, kind)| *kind)
}

/// Whether `c` is a CJK character: a Han ideograph, Kana, Bopomofo, Hangul, or CJK punctuation,
/// symbol or fullwidth form.
pub fn is_cjk(c: char) -> bool {
    kind(c).is_some()
}

/// Whether `c` is a letter of a CJK script (Han, Kana, Bopomofo, Hangul): what CJK words are
/// made of, without the punctuation, symbols and fullwidth Latin forms [`is_cjk`] also counts.
pub fn is_cjk_letter(c: char) -> bool {
    kind(c).is_some_and(|kind| kind != Kind::Symbol)
}

/// Whether `c` is a Han ideograph (CJK unified ideographs, their extensions and the
/// compatibility ideographs): a Chinese character.
pub fn is_cjk_ideograph(c: char) -> bool {
    kind(c) == Some(Kind::Ideograph)
}

/// Whether `c` is Hangul (syllables, Jamo, halfwidth forms): the one CJK script written with
/// spaces between words.
pub fn is_hangul(c: char) -> bool {
    kind(c) == Some(Kind::Hangul)
}

/// Roughly how many tokens `text` takes a model: one per CJK character ([`is_cjk`]) and one per
/// four other characters, rounded up. The UI's `estimateTokens` (`ui/src/lib/context.ts`) counts
/// the same way; `crates/protocol/tests/token_estimates.json` holds the cases both are tested on.
pub fn estimate_tokens(text: &str) -> usize {
    let (cjk, other) = text.chars().fold((0, 0), |(cjk, other), c| {
        if is_cjk(c) {
            (cjk + 1, other)
        } else {
            (cjk, other + 1)
        }
    });
    cjk + usize::div_ceil(other, 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn char_at(code: u32) -> char {
        char::from_u32(code).unwrap_or_else(|| panic!("U+{code:X} is no char"))
    }

    #[test]
    fn the_ranges_ascend_without_overlap() {
        for pair in CJK_RANGES.windows(2) {
            assert!(pair[0].0 <= pair[0].1, "{pair:?}");
            assert!(pair[0].1 < pair[1].0, "{pair:?}");
        }
    }

    #[test]
    fn every_range_ends_where_it_says() {
        for (first, last, kind) in CJK_RANGES {
            assert!(is_cjk(first) && is_cjk(last), "{first:?}..={last:?}");
            assert_eq!(is_cjk_letter(first), kind != Kind::Symbol);
            assert_eq!(is_cjk_ideograph(last), kind == Kind::Ideograph);
            assert_eq!(is_hangul(first), kind == Kind::Hangul);
            let before = char_at(first as u32 - 1);
            let after = char::from_u32(last as u32 + 1);
            let adjacent = |c: char| CJK_RANGES.iter().any(|(f, l, _)| (*f..=*l).contains(&c));
            if !adjacent(before) {
                assert!(!is_cjk(before), "U+{:X}", before as u32);
            }
            if let Some(after) = after.filter(|&c| !adjacent(c)) {
                assert!(!is_cjk(after), "U+{:X}", after as u32);
            }
        }
    }

    #[test]
    fn the_boundaries_of_each_script() {
        // Han: extension A, the unified block, compatibility ideographs, planes 2 and 3.
        for code in [
            0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xF900, 0xFAFF, 0x20000, 0x3FFFF,
        ] {
            assert!(is_cjk_ideograph(char_at(code)), "U+{code:X}");
        }
        for code in [
            0x33FF, 0x4DC0, 0x4DFF, 0xA000, 0xF8FF, 0xFB00, 0x1FFFF, 0x40000,
        ] {
            assert!(!is_cjk_ideograph(char_at(code)), "U+{code:X}");
        }
        // Kana, halfwidth Katakana included, and the Katakana middle dot's block.
        for c in ['ぁ', 'ア', 'ヿ', 'ㇰ', 'ｦ', 'ﾟ'] {
            assert!(
                is_cjk_letter(c) && !is_cjk_ideograph(c) && !is_hangul(c),
                "{c}"
            );
        }
        // Hangul: syllables, Jamo (conjoining, compatibility, extended), halfwidth.
        for code in [
            0xAC00, 0xD7A3, 0xD7FF, 0x1100, 0x11FF, 0x3131, 0xA960, 0xFFA0, 0xFFDC,
        ] {
            assert!(is_hangul(char_at(code)), "U+{code:X}");
            assert!(is_cjk_letter(char_at(code)), "U+{code:X}");
        }
        assert!(!is_hangul(char_at(0x10FF)) && !is_hangul(char_at(0x1200)));
        assert!(!is_hangul('中') && !is_hangul('あ'));
        // Bopomofo is a letter.
        assert!(is_cjk_letter('ㄅ') && is_cjk_letter('ㆠ'));
    }

    #[test]
    fn punctuation_and_fullwidth_forms_are_cjk_but_no_letters() {
        for c in [
            '\u{3000}', '、', '。', '「', '〿', '，', '！', 'Ａ', '１', '｡', '･', '￥', '￮',
        ] {
            assert!(is_cjk(c), "{c}");
            assert!(!is_cjk_letter(c), "{c}");
        }
        assert!(!is_cjk('\u{2FFF}') && !is_cjk('\u{FFF0}') && !is_cjk('\u{FEFF}'));
    }

    #[test]
    fn ascii_latin_and_emoji_are_not_cjk() {
        for c in ['a', 'Z', '0', ' ', '\n', '~', 'é', 'ß', 'Ж', 'ع', '—', '€'] {
            assert!(!is_cjk(c), "{c}");
        }
        for c in ['👍', '😀', '🎉', '\u{200D}', '\u{FE0F}', '🈁', '🉐'] {
            assert!(!is_cjk(c), "U+{:X}", c as u32);
        }
    }

    #[test]
    fn tokens_are_one_per_cjk_character_and_a_quarter_per_other() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("a"), 1);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("喝绿茶"), 3);
        assert_eq!(estimate_tokens("好 ok"), 2);
    }
}
