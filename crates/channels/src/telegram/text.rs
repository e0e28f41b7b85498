//! Text for the Bot API: messages are sent with `parse_mode: HTML`, so `&`, `<` and `>` are
//! escaped and everything else is shown as written; texts longer than Telegram's 4,096
//! characters are split, at a line break or space where one is near the end.

/// The most characters one message may have (counted in UTF-16 units, as Telegram does).
pub const TEXT_LIMIT: usize = 4096;
/// The most characters a caption may have.
pub(crate) const CAPTION_LIMIT: usize = 1024;

/// `text` escaped for `parse_mode: HTML`.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` cut into pieces of at most `limit` UTF-16 units (never inside a character), each
/// ending at the last line break, else the last space, in its second half when there is one.
pub fn split_text(text: &str, limit: usize) -> Vec<String> {
    let limit = limit.max(2);
    let mut pieces = Vec::new();
    let mut rest = text;
    while utf16_len(rest) > limit {
        let mut end = 0;
        let mut units = 0;
        for (at, c) in rest.char_indices() {
            if units + c.len_utf16() > limit {
                break;
            }
            units += c.len_utf16();
            end = at + c.len_utf8();
        }
        let window = &rest[..end];
        let half = window.len() / 2;
        let cut = window
            .rfind('\n')
            .filter(|&at| at >= half)
            .or_else(|| window.rfind(' ').filter(|&at| at >= half))
            .map_or(end, |at| at + 1);
        pieces.push(rest[..cut].to_string());
        rest = &rest[cut..];
    }
    if !rest.is_empty() || pieces.is_empty() {
        pieces.push(rest.to_string());
    }
    pieces
}

/// The length Telegram counts.
pub(crate) fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn html_specials_are_escaped_and_nothing_else() {
        assert_eq!(
            escape_html("a < b && c > d *bold* _x_ [l](u)"),
            "a &lt; b &amp;&amp; c &gt; d *bold* _x_ [l](u)"
        );
    }

    #[test]
    fn long_texts_split_at_line_breaks_within_the_limit_and_lose_nothing() {
        let line = "word ".repeat(30) + "\n";
        let text = line.repeat(100);
        let pieces = split_text(&text, TEXT_LIMIT);
        assert!(pieces.len() >= 4, "{}", pieces.len());
        for piece in &pieces {
            assert!(utf16_len(piece) <= TEXT_LIMIT);
        }
        assert!(pieces[..pieces.len() - 1].iter().all(|p| p.ends_with('\n')));
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn a_text_without_spaces_splits_between_characters_counting_utf16() {
        let text = "😀".repeat(3000);
        let pieces = split_text(&text, TEXT_LIMIT);
        assert_eq!(pieces.len(), 2);
        assert_eq!(utf16_len(&pieces[0]), 4096);
        assert_eq!(pieces.concat(), text);
        assert_eq!(split_text("short", TEXT_LIMIT), vec!["short".to_string()]);
    }
}
