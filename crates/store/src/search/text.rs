//! The text a message is indexed under, and its CJK-segmented form for the word index.

use hearth_protocol::{is_cjk_letter, parts_text, ContentPart, ToolCall, ToolResult};

/// Inserted between a CJK character and an adjacent character. unicode61 treats it as a
/// separator (category Cf) and it is invisible if it ever reaches the screen.
pub(crate) const WORD_BREAK: char = '\u{200B}';

/// What a message is found by: its content's text, each tool call's name and arguments and the
/// tool result's content, one per line.
pub fn searchable_text(
    content: &[ContentPart],
    tool_calls: &[ToolCall],
    tool_result: Option<&ToolResult>,
) -> String {
    let mut pieces = vec![parts_text(content)];
    pieces.extend(
        tool_calls
            .iter()
            .map(|call| format!("{} {}", call.name, call.arguments)),
    );
    pieces.extend(tool_result.map(|result| result.content.clone()));
    pieces.retain(|piece| !piece.is_empty());
    pieces.join("\n")
}

/// What the word index stores for `text`: non-CJK text unchanged, and each run of CJK letters
/// ([`is_cjk_letter`]; CJK punctuation and fullwidth forms are left as they are) as overlapping
/// bigrams followed by the run's last character (`今天天气` becomes `今天 天天 天气 气`), every
/// token set apart by [`WORD_BREAK`]. A CJK word is then one token and a longer CJK string a
/// phrase of bigrams, both exact substring matches; the trailing unigram lets a single character
/// be found as a prefix.
pub(crate) fn word_form(text: &str) -> String {
    segment(text, false).0
}

/// The word-index phrase for one query term, and whether its last token is a prefix. Like
/// [`word_form`], except that a CJK run at the end of the term may continue in the message: it
/// contributes only its bigrams, or (a single character) a prefix token.
pub(crate) fn word_query(term: &str) -> (String, bool) {
    segment(term, true)
}

fn segment(text: &str, open_end: bool) -> (String, bool) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() * 3);
    let mut prefix = false;
    let mut i = 0;
    while i < chars.len() {
        if !is_cjk_letter(chars[i]) {
            if i > 0 && is_cjk_letter(chars[i - 1]) {
                out.push(WORD_BREAK);
            }
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_cjk_letter(chars[i]) {
            i += 1;
        }
        let run = &chars[start..i];
        if start > 0 {
            out.push(WORD_BREAK);
        }
        for pair in run.windows(2) {
            out.extend(pair);
            out.push(WORD_BREAK);
        }
        match (open_end && i == chars.len(), run) {
            (true, [single]) => {
                out.push(*single);
                prefix = true;
            }
            (true, _) => {
                out.pop();
            }
            (false, [.., last]) => out.push(*last),
            (false, []) => {}
        }
    }
    (out, prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_form_turns_cjk_runs_into_bigrams_and_a_last_character() {
        let b = WORD_BREAK;
        assert_eq!(word_form("今天天气"), format!("今天{b}天天{b}天气{b}气"));
        assert_eq!(
            word_form("我用Rust的性能"),
            format!("我用{b}用{b}Rust{b}的性{b}性能{b}能")
        );
        assert_eq!(word_form("好 report"), format!("好{b} report"));
        assert_eq!(word_form("plain english"), "plain english");
        assert_eq!(word_form(""), "");
    }

    #[test]
    fn word_query_leaves_a_trailing_cjk_run_open() {
        let b = WORD_BREAK;
        assert_eq!(
            word_query("天气很好"),
            (format!("天气{b}气很{b}很好"), false)
        );
        assert_eq!(word_query("天气"), ("天气".to_string(), false));
        assert_eq!(word_query("好"), ("好".to_string(), true));
        assert_eq!(word_query("Rust的"), (format!("Rust{b}的"), true));
        // A run followed by anything else inside the term ends there in the message too.
        assert_eq!(word_query("用Rust"), (format!("用{b}Rust"), false));
        assert_eq!(word_query("天气。"), (format!("天气{b}气{b}。"), false));
        assert_eq!(word_query("report"), ("report".to_string(), false));
    }

    #[test]
    fn searchable_text_joins_content_tool_calls_and_result() {
        let call = ToolCall {
            id: "c1".into(),
            name: "read_file".into(),
            arguments: r#"{"path":"notes.md"}"#.into(),
            signature: None,
        };
        let result = ToolResult {
            call_id: "c1".into(),
            name: "read_file".into(),
            content: r#"{"content":"hello"}"#.into(),
            is_error: false,
            duration_ms: 3,
            images: Vec::new(),
            views: Vec::new(),
        };
        let text = searchable_text(&[ContentPart::text("look")], &[call], Some(&result));
        assert_eq!(
            text,
            "look\nread_file {\"path\":\"notes.md\"}\n{\"content\":\"hello\"}"
        );
        assert_eq!(searchable_text(&[], &[], None), "");
    }
}
