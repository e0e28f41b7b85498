//! Tests of finding memories: Chinese and English search, ranking, filters, caps and paging,
//! and the prompt selection.

use super::tests::{add, ids, new, search};
use super::*;
use crate::test_support::TempStore;
use hearth_protocol::estimate_tokens;

#[test]
fn search_finds_chinese_and_english() {
    let t = TempStore::new();
    let tea = add(&t, new("用户喜欢喝绿茶")).memory;
    let coffee = add(&t, new("prefers dark roast coffee")).memory;
    let mixed = add(&t, new("项目用Rust编写，部署在Linux服务器")).memory;
    for (query, expected) in [
        ("绿茶", vec![tea.id]),
        ("喜欢", vec![tea.id]),
        ("用户喜欢什么茶", vec![tea.id]),
        ("coffee", vec![coffee.id]),
        ("COFFEE roast", vec![coffee.id]),
        ("coffe", vec![coffee.id]),
        ("rust", vec![mixed.id]),
        ("服务器", vec![mixed.id]),
        ("红茶", vec![]),
        ("tea", vec![]),
        ("", vec![]),
        ("\"*() NEAR", vec![]),
    ] {
        assert_eq!(search(&t, query), expected, "{query:?}");
    }
    let both = search(&t, "绿茶 coffee");
    assert_eq!(both.len(), 2, "any word matches");
}

#[test]
fn chinese_characters_apart_are_found_below_exact_matches() {
    let t = TempStore::new();
    let apart = add(&t, new("我喜欢喝绿茶")).memory;
    let exact = add(&t, new("下午喝茶的习惯")).memory;
    add(&t, new("喝咖啡"));
    assert_eq!(search(&t, "喝茶"), [exact.id, apart.id]);
    let mut reversed = search(&t, "茶喝");
    reversed.sort();
    assert_eq!(reversed, [apart.id, exact.id], "in any order");
    assert!(search(&t, "红茶").is_empty(), "every character is needed");
}

#[test]
fn ranking_puts_pinned_first_then_relevance_times_importance() {
    let t = TempStore::new();
    let mut low = new("likes jazz music");
    low.importance = Some(0.1);
    let low = add(&t, low).memory;
    let mut high = new("likes jazz concerts");
    high.importance = Some(1.0);
    let high = add(&t, high).memory;
    let mut pinned = new("jazz records collection, also rock and pop and classical");
    pinned.importance = Some(0.0);
    pinned.pinned = Some(true);
    let pinned = add(&t, pinned).memory;
    let partial = add(&t, new("jazzy tunes in the morning")).memory;
    assert_eq!(search(&t, "jazz"), [pinned.id, high.id, low.id, partial.id]);
    // Matching more of the query outweighs importance.
    assert_eq!(search(&t, "jazz music")[1], low.id);
}

#[test]
fn filters_restrict_search_and_listing() {
    let t = TempStore::new();
    let old = add(&t, new("backup server is nas01")).memory;
    t.tick();
    let cut = old.updated_at + 1;
    let mut env = new("backup runs nightly on the server");
    env.target = MemoryTarget::Environment;
    env.category = Some("infra".into());
    env.tags = Some(vec!["Backup".into(), "ops".into()]);
    let env = add(&t, env).memory;
    let find = |filter: MemoryFilter| ids(&t.store.search_memories("server", &filter, 10).unwrap());
    assert_eq!(find(MemoryFilter::default()).len(), 2);
    let since = MemoryFilter {
        since: Some(cut),
        ..MemoryFilter::default()
    };
    assert_eq!(find(since), [env.id]);
    let until = MemoryFilter {
        until: Some(old.updated_at),
        ..MemoryFilter::default()
    };
    assert_eq!(find(until), [old.id]);
    let category = MemoryFilter {
        category: Some("infra".into()),
        ..MemoryFilter::default()
    };
    assert_eq!(find(category), [env.id]);
    let target = MemoryFilter {
        target: Some(MemoryTarget::User),
        ..MemoryFilter::default()
    };
    assert_eq!(find(target), [old.id]);
    let tags = MemoryFilter {
        tags: vec!["backup".into(), "OPS".into()],
        ..MemoryFilter::default()
    };
    assert_eq!(find(tags.clone()), [env.id]);
    assert_eq!(ids(&t.store.list_memories(&tags, 0, 10).unwrap()), [env.id]);
    let missing_tag = MemoryFilter {
        tags: vec!["backup".into(), "nope".into()],
        ..MemoryFilter::default()
    };
    assert!(find(missing_tag).is_empty());
}

#[test]
fn search_and_list_are_capped_and_paged() {
    let t = TempStore::new();
    for n in 0..60 {
        add(&t, new(&format!("note number {n} about gardening")));
    }
    let page = t
        .store
        .search_memories("gardening", &MemoryFilter::default(), 500)
        .unwrap();
    assert_eq!(page.memories.len(), MAX_MEMORY_RESULTS);
    assert_eq!(page.total, 60);
    let first = t
        .store
        .list_memories(&MemoryFilter::default(), 0, 25)
        .unwrap();
    let second = t
        .store
        .list_memories(&MemoryFilter::default(), 25, 25)
        .unwrap();
    let rest = t
        .store
        .list_memories(&MemoryFilter::default(), 50, 25)
        .unwrap();
    assert_eq!((first.total, first.memories.len()), (60, 25));
    assert_eq!((second.memories.len(), rest.memories.len()), (25, 10));
    assert!(first.memories[24].updated_at >= second.memories[0].updated_at);
    let far = t
        .store
        .list_memories(&MemoryFilter::default(), usize::MAX, 10)
        .unwrap();
    assert!(far.memories.is_empty());
}

#[test]
fn pinned_and_relevant_fit_the_token_budget() {
    let t = TempStore::new();
    let mut pin = new("always answer in British English");
    pin.pinned = Some(true);
    let pin = add(&t, pin).memory;
    let tea = add(&t, new("用户喜欢喝绿茶")).memory;
    let coffee = add(&t, new("prefers dark roast coffee")).memory;
    add(&t, new("has two children"));
    let chosen = |query: &str, budget: usize| -> Vec<i64> {
        let memories = t.store.pinned_and_relevant(query, budget).unwrap();
        memories.iter().map(|m| m.id).collect()
    };
    assert_eq!(chosen("我想喝点绿茶", 1000), [pin.id, tea.id]);
    assert_eq!(chosen("Any coffee tips?", 1000), [pin.id, coffee.id]);
    assert_eq!(chosen("", 1000), [pin.id]);
    // The pinned memory costs 8 + 4 tokens, 用户喜欢喝绿茶 7 + 4.
    assert_eq!(estimate_tokens("always answer in British English"), 8);
    assert_eq!(estimate_tokens("用户喜欢喝绿茶"), 7);
    assert_eq!(estimate_tokens("Rust的性能"), 4);
    assert_eq!(chosen("绿茶", 12), [pin.id]);
    assert_eq!(chosen("绿茶", 23), [pin.id, tea.id]);
    assert_eq!(chosen("绿茶", 11), [tea.id], "a smaller one still fits");
    assert!(chosen("绿茶", 0).is_empty());
}
