//! Tests of full-text search over messages.

use hearth_protocol::{ContentPart, Role, SearchHit, ToolCall, ToolResult};

use crate::test_support::TempStore;
use crate::NewMessage;

fn search(t: &TempStore, query: &str) -> Vec<SearchHit> {
    t.store.search_messages(query, 20, None, None).unwrap()
}

/// The ids of the messages `query` finds, best first.
pub(super) fn found(t: &TempStore, query: &str) -> Vec<i64> {
    search(t, query).iter().map(|h| h.message_id).collect()
}

#[test]
fn english_words_are_found_case_insensitively_with_snippets() {
    let t = TempStore::new();
    t.session("s");
    let report = t.say(
        "s",
        Role::User,
        "Please write the weather report for Monday.",
    );
    t.say("s", Role::Assistant, "Sure, here is something unrelated.");
    for query in [
        "weather",
        "weather report",
        "WEATHER Report",
        "monday",
        "  report\t",
    ] {
        assert_eq!(found(&t, query), [report.id], "{query}");
    }
    let hit = &search(&t, "weather report")[0];
    assert_eq!(
        hit.snippet,
        "Please write the [weather] [report] for Monday."
    );
    assert_eq!(hit.session_id, "s");
    assert_eq!(hit.session_title, "Chat s");
    assert_eq!(hit.role, Role::User);
    assert_eq!(hit.created_at, report.created_at);
    assert!(found(&t, "weather snow").is_empty());
}

#[test]
fn chinese_is_found_by_words_of_any_length() {
    let t = TempStore::new();
    t.session("s");
    let good = t.say("s", Role::User, "今天天气很好");
    let rain = t.say("s", Role::User, "明天会下雨，天气不好。");
    assert_eq!(found(&t, "天气很好"), [good.id]);
    assert_eq!(found(&t, "今天"), [good.id]);
    assert_eq!(found(&t, "下雨"), [rain.id]);
    // The shorter message ranks first (bm25).
    assert_eq!(found(&t, "好"), [good.id, rain.id]);
    let mut both = found(&t, "天气");
    both.sort();
    assert_eq!(both, [good.id, rain.id]);
    assert!(found(&t, "天晴").is_empty());
    // Characters apart still find a message (after the exact matches, see below).
    assert_eq!(found(&t, "很天"), [good.id]);
    let hit = &search(&t, "天气很好")[0];
    assert_eq!(hit.snippet, "今天[天气很好]");
    let hit = &search(&t, "下雨")[0];
    assert_eq!(hit.snippet, "明天会[下雨]，天气不好。");
}

#[test]
fn chinese_characters_apart_are_found_below_exact_matches() {
    let t = TempStore::new();
    t.session("s");
    let apart = t.say("s", Role::User, "我喜欢喝绿茶");
    let exact = t.say("s", Role::User, "下午一起喝茶吧");
    t.say("s", Role::User, "喝咖啡");
    assert_eq!(found(&t, "喝茶"), [exact.id, apart.id]);
    let hits = search(&t, "喝茶");
    assert_eq!(hits[1].snippet, "我喜欢[喝]绿[茶]");
    assert!(found(&t, "红茶").is_empty(), "every character is needed");
}

#[test]
fn mixed_text_is_found_by_either_script() {
    let t = TempStore::new();
    t.session("s");
    let mixed = t.say("s", Role::Assistant, "我用Rust写了一个天气report工具。");
    for query in [
        "rust",
        "Rust 天气",
        "report 工具",
        "写了",
        "Rust写了",
        "天气report",
    ] {
        assert_eq!(found(&t, query), [mixed.id], "{query}");
    }
    assert!(found(&t, "python 天气").is_empty());
}

#[test]
fn every_cjk_substring_and_every_longer_substring_finds_the_message() {
    let t = TempStore::new();
    t.session("s");
    let text = "我用Rust写了一个天气report工具。";
    let message = t.say("s", Role::Assistant, text);
    t.say("s", Role::User, "无关的内容 unrelated words");
    let chars: Vec<char> = text.chars().collect();
    for start in 0..chars.len() {
        for end in start + 1..=chars.len() {
            let part: String = chars[start..end].iter().collect();
            let cjk_only = part.chars().all(hearth_protocol::is_cjk_letter);
            if cjk_only || part.chars().count() >= 3 {
                assert_eq!(found(&t, &part), [message.id], "{part}");
            }
        }
    }
    // Two letters inside a word are not a search: they are in almost every message.
    assert!(found(&t, "ep").is_empty());
}

#[test]
fn word_matches_rank_before_substring_matches() {
    let t = TempStore::new();
    t.session("s");
    let partial = t.say("s", Role::User, "the reports are ready");
    let whole = t.say("s", Role::User, "one report");
    assert_eq!(found(&t, "report"), [whole.id, partial.id]);
    assert_eq!(found(&t, "eport"), [whole.id, partial.id]);
    assert_eq!(found(&t, "ports ready"), [partial.id]);
    let hit = &search(&t, "ports")[0];
    assert!(hit.snippet.contains("re[ports]"), "{}", hit.snippet);
}

#[test]
fn bm25_ranks_then_recency_breaks_ties() {
    let t = TempStore::new();
    t.session("s");
    let dense = t.say("s", Role::User, "rust rust rust");
    let old = t.say("s", Role::User, "rust and a long tail of other words here");
    let new = t.say("s", Role::User, "rust and a long tail of other words here");
    assert_eq!(found(&t, "rust"), [dense.id, new.id, old.id]);
}

#[test]
fn query_syntax_is_taken_literally_and_never_errors() {
    let t = TempStore::new();
    t.session("s");
    let logic = t.say("s", Role::User, "black AND white OR grey, NOT blue");
    let code = t.say(
        "s",
        Role::User,
        "call f(x) -> y * 2; \"quoted\" col:val {a b} ^c",
    );
    let hostile = [
        "\"",
        "\"\"",
        "\"unbalanced",
        "AND",
        "AND OR",
        "OR",
        "NOT",
        "*",
        "**",
        "a*",
        ")",
        "(",
        "NEAR(",
        "NEAR(a b)",
        "NEAR(a b, 3)",
        "-x",
        "^c",
        "col:val",
        "{a b}",
        "\\",
        "%",
        "_",
        "%%",
        "'; DROP TABLE messages; --",
        "\u{0}",
        "\u{7}bell",
        "🙂",
        "\u{200B}",
        "\u{0345}",
        "a\"b",
        "f(x)",
        "->",
        "==>",
    ];
    for query in hostile {
        t.store
            .search_messages(query, 20, None, None)
            .unwrap_or_else(|e| panic!("{query:?}: {e}"));
    }
    assert_eq!(found(&t, "AND OR"), [logic.id]);
    assert_eq!(found(&t, "NOT blue"), [logic.id]);
    assert_eq!(found(&t, "f(x)"), [code.id]);
    assert_eq!(found(&t, "\"quoted\""), [code.id]);
    assert_eq!(found(&t, "col:val"), [code.id]);
    assert_eq!(found(&t, "->"), Vec::<i64>::new());
    assert_eq!(found(&t, "y * 2;"), [code.id]);
    assert_eq!(t.store.list_messages("s").unwrap().len(), 2);
}

#[test]
fn short_terms_match_whole_words_and_wildcards_are_literal() {
    let t = TempStore::new();
    t.session("s");
    let underscore = t.say("s", Role::User, "alpha a_b");
    t.say("s", Role::User, "alpha axb");
    let percent = t.say("s", Role::User, "discount 5% today");
    t.say("s", Role::User, "discount 50 today");
    let go = t.say("s", Role::User, "let us go gamma");
    t.say("s", Role::User, "good gamma");
    assert_eq!(found(&t, "alpha a_"), [underscore.id]);
    assert_eq!(found(&t, "discount 5%"), [percent.id]);
    assert_eq!(found(&t, "gamma go"), [go.id]);
    // Long terms also match inside words; a short one keeps the query to whole words.
    assert_eq!(found(&t, "amma"), [go.id + 1, go.id]);
    assert_eq!(found(&t, "amma go"), Vec::<i64>::new());
}

#[test]
fn empty_or_unsearchable_queries_find_nothing() {
    let t = TempStore::new();
    t.session("s");
    t.say("s", Role::User, "anything at all");
    for query in ["", "   ", "\n\t", "*", "\"", "()"] {
        assert!(search(&t, query).is_empty(), "{query:?}");
    }
    assert!(t
        .store
        .search_messages("anything", 0, None, None)
        .unwrap()
        .is_empty());
    let huge = "anything ".repeat(5_000);
    assert_eq!(search(&t, &huge).len(), 1);
    let long_term = "x".repeat(100_000);
    assert!(search(&t, &long_term).is_empty());
}

#[test]
fn filters_and_limits_apply() {
    let t = TempStore::new();
    t.session("a");
    t.session("b");
    for i in 0..5 {
        t.say("a", Role::User, &format!("deploy step {i}"));
        t.say("a", Role::Assistant, &format!("deploy done {i}"));
        t.say("b", Role::User, &format!("deploy elsewhere {i}"));
    }
    assert_eq!(search(&t, "deploy").len(), 15);
    assert_eq!(
        t.store
            .search_messages("deploy", 4, None, None)
            .unwrap()
            .len(),
        4
    );
    let in_a = t
        .store
        .search_messages("deploy", 50, Some("a"), None)
        .unwrap();
    assert_eq!(in_a.len(), 10);
    assert!(in_a.iter().all(|h| h.session_id == "a"));
    let users = t
        .store
        .search_messages("deploy", 50, Some("a"), Some(Role::User))
        .unwrap();
    assert_eq!(users.len(), 5);
    assert!(users
        .iter()
        .all(|h| h.role == Role::User && h.session_id == "a"));
    let tools = t
        .store
        .search_messages("deploy", 50, None, Some(Role::Tool))
        .unwrap();
    assert!(tools.is_empty());
    let substring = t
        .store
        .search_messages("eploy", 50, Some("b"), None)
        .unwrap();
    assert_eq!(substring.len(), 5);
    assert!(t
        .store
        .search_messages("deploy", 50, Some("none"), None)
        .unwrap()
        .is_empty());
    // Equal scores: newest first.
    let ids: Vec<i64> = users.iter().map(|h| h.message_id).collect();
    let mut newest_first = ids.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(ids, newest_first);
}

#[test]
fn tool_calls_and_results_are_searchable() {
    let t = TempStore::new();
    t.session("s");
    let mut asks = NewMessage::new("s", Role::Assistant, Vec::new());
    asks.tool_calls = vec![ToolCall {
        id: "c1".into(),
        name: "search_files".into(),
        arguments: r#"{"pattern":"TODO"}"#.into(),
        signature: None,
    }];
    let asks = t.store.insert_message(&asks).unwrap();
    let mut result = NewMessage::new("s", Role::Tool, Vec::new());
    result.tool_result = Some(ToolResult {
        call_id: "c1".into(),
        name: "search_files".into(),
        content: r#"{"matches":["src/main.rs:3: fix the frobnicator"]}"#.into(),
        is_error: false,
        duration_ms: 4,
        images: Vec::new(),
        views: Vec::new(),
    });
    let result = t.store.insert_message(&result).unwrap();
    assert_eq!(found(&t, "search_files"), [asks.id]);
    assert_eq!(found(&t, "pattern TODO"), [asks.id]);
    assert_eq!(found(&t, "frobnicator"), [result.id]);
}

#[test]
fn rewrites_and_deletes_keep_the_index_in_step() {
    let t = TempStore::new();
    t.session("s");
    let new = NewMessage::new(
        "s",
        Role::Assistant,
        vec![ContentPart::text("draft zebra 斑马")],
    );
    let message = t.store.insert_message(&new).unwrap();
    assert_eq!(found(&t, "zebra"), [message.id]);
    t.store
        .update_streaming(
            message.id,
            &[ContentPart::text("final giraffe 长颈鹿")],
            &[],
        )
        .unwrap();
    for gone in ["zebra", "ebr", "draft", "斑马"] {
        assert!(found(&t, gone).is_empty(), "{gone}");
    }
    for present in ["giraffe", "iraff", "长颈鹿", "颈鹿"] {
        assert_eq!(found(&t, present), [message.id], "{present}");
    }
    t.store.delete_messages_after("s", 0).unwrap();
    assert!(found(&t, "giraffe").is_empty());
    assert!(found(&t, "iraff").is_empty());
}

#[test]
fn ranking_considers_the_most_recent_matches() {
    let t = TempStore::new();
    t.session("s");
    let best_but_oldest = t.say("s", Role::User, "common common common anchor");
    for i in 0..super::RANK_WINDOW {
        t.say("s", Role::User, &format!("common filler text number {i}"));
    }
    let hits = found(&t, "common");
    assert_eq!(hits.len(), 20);
    assert!(!hits.contains(&best_but_oldest.id));
    // It is still found by a query that only it matches.
    assert_eq!(found(&t, "common anchor"), [best_but_oldest.id]);
}
