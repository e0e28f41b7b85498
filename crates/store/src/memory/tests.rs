//! Tests of memories: adding, key overwrite, duplicates, edits, removal, search, listing, the
//! prompt selection and validation. Contradictions are in `contradiction_tests`.

use super::*;
use crate::test_support::TempStore;
use crate::StoreError;

pub(super) fn new(content: &str) -> NewMemory {
    NewMemory::new(content, MemorySource::UserStated)
}

pub(super) fn add(t: &TempStore, memory: NewMemory) -> AddOutcome {
    t.store.add_memory(&memory).unwrap()
}

pub(super) fn keyed(key: &str, content: &str, source: MemorySource) -> NewMemory {
    NewMemory {
        key: Some(key.to_string()),
        ..NewMemory::new(content, source)
    }
}

pub(super) fn ids(page: &MemoryPage) -> Vec<i64> {
    page.memories.iter().map(|m| m.id).collect()
}

pub(super) fn search(t: &TempStore, query: &str) -> Vec<i64> {
    ids(&t
        .store
        .search_memories(query, &MemoryFilter::default(), 50)
        .unwrap())
}

#[test]
fn add_stores_defaults_and_survives_reopening() {
    let t = TempStore::new();
    let out = add(&t, new("  prefers dark roast coffee \n"));
    assert_eq!(out.action, AddAction::Added);
    assert_eq!(out.previous_content, None);
    assert_eq!(out.contradiction, None);
    let m = out.memory;
    assert_eq!(m.content, "prefers dark roast coffee");
    assert_eq!(m.key, None);
    assert_eq!(m.tags, Vec::<String>::new());
    assert_eq!(m.importance, DEFAULT_IMPORTANCE);
    assert!(!m.pinned && !m.pending);
    assert_eq!(m.source, MemorySource::UserStated);
    assert_eq!(m.target, MemoryTarget::User);
    assert_eq!(m.category, DEFAULT_CATEGORY);
    assert_eq!(m.created_at, m.updated_at);
    let t = t.reopen();
    assert_eq!(t.store.get_memory(m.id).unwrap(), Some(m));
    assert_eq!(t.store.get_memory(9999).unwrap(), None);
}

#[test]
fn add_with_an_existing_key_overwrites_and_bumps_updated_at() {
    let t = TempStore::new();
    let mut first = keyed("editor", "uses vim", MemorySource::ModelInferred);
    first.tags = Some(vec![" Tools ".into(), "tools".into(), "Editor".into()]);
    first.importance = Some(0.9);
    let first = add(&t, first).memory;
    assert_eq!(first.tags, ["tools", "editor"]);
    t.tick();
    let out = add(
        &t,
        keyed("editor", "uses helix", MemorySource::ModelInferred),
    );
    assert_eq!(out.action, AddAction::Overwritten);
    assert_eq!(out.previous_content.as_deref(), Some("uses vim"));
    assert_eq!(out.memory.id, first.id);
    assert_eq!(out.memory.content, "uses helix");
    assert_eq!(out.memory.tags, first.tags, "unset fields are kept");
    assert_eq!(out.memory.importance, 0.9);
    assert!(out.memory.updated_at > first.updated_at);
    assert_eq!(out.memory.created_at, first.created_at);
    assert_eq!(search(&t, "helix"), [first.id]);
    assert!(
        search(&t, "vim").is_empty(),
        "the index follows the overwrite"
    );
    assert_eq!(search(&t, "editor"), [first.id], "keys are searchable");
}

#[test]
fn the_same_content_twice_is_one_memory() {
    let t = TempStore::new();
    let first = add(&t, new("lives in Berlin")).memory;
    t.tick();
    let mut again = new("lives in Berlin");
    again.pinned = Some(true);
    again.key = Some("home".into());
    let out = add(&t, again);
    assert_eq!(out.action, AddAction::Duplicate);
    assert_eq!(out.memory.id, first.id);
    assert!(out.memory.pinned);
    assert_eq!(out.memory.key.as_deref(), Some("home"));
    assert_eq!(out.memory.updated_at, first.updated_at, "content unchanged");
    let same_key = add(
        &t,
        keyed("home", "lives in Berlin", MemorySource::ModelInferred),
    );
    assert_eq!(same_key.action, AddAction::Duplicate);
    let page = t
        .store
        .list_memories(&MemoryFilter::default(), 0, 50)
        .unwrap();
    assert_eq!(page.total, 1);
}

#[test]
fn edits_change_fields_and_reindex() {
    let t = TempStore::new();
    let m = add(
        &t,
        keyed("pet", "has a cat named Tom", MemorySource::UserStated),
    )
    .memory;
    t.tick();
    let edit = MemoryEdit {
        content: Some("has a dog named Rex".into()),
        pinned: Some(true),
        importance: Some(0.8),
        tags: Some(vec!["Pets".into()]),
    };
    let Selected::Found((edited, previous)) = t
        .store
        .edit_memory(MemorySelector::Key("pet"), &edit)
        .unwrap()
    else {
        panic!("not found");
    };
    assert_eq!(previous, "has a cat named Tom");
    assert_eq!(edited.content, "has a dog named Rex");
    assert!(edited.pinned);
    assert_eq!(
        (edited.importance, edited.tags.clone()),
        (0.8, vec!["pets".to_string()])
    );
    assert!(edited.updated_at > m.updated_at);
    assert_eq!(search(&t, "rex"), [m.id]);
    assert!(search(&t, "tom").is_empty());
    let pin_only = MemoryEdit {
        pinned: Some(false),
        ..MemoryEdit::default()
    };
    let Selected::Found((unpinned, _)) = t
        .store
        .edit_memory(MemorySelector::Id(m.id), &pin_only)
        .unwrap()
    else {
        panic!("not found");
    };
    assert_eq!(
        unpinned.updated_at, edited.updated_at,
        "metadata is not a write"
    );
    assert_eq!(
        t.store
            .edit_memory(
                MemorySelector::Containing("dog named"),
                &MemoryEdit::default()
            )
            .unwrap()
            .map_found(),
        Some(m.id)
    );
    assert_eq!(
        t.store
            .edit_memory(MemorySelector::Key("nope"), &pin_only)
            .unwrap(),
        Selected::Missing
    );
}

impl Selected<(Memory, String)> {
    fn map_found(&self) -> Option<i64> {
        match self {
            Selected::Found((m, _)) => Some(m.id),
            _ => None,
        }
    }
}

#[test]
fn remove_by_id_key_or_unique_text() {
    let t = TempStore::new();
    let a = add(
        &t,
        keyed("city", "lives in Berlin", MemorySource::UserStated),
    )
    .memory;
    let b = add(&t, new("works in Potsdam")).memory;
    let c = add(&t, new("works remotely on Fridays")).memory;
    let removed = t.store.remove_memory(MemorySelector::Key("city")).unwrap();
    assert_eq!(removed, Selected::Found(a.clone()));
    assert_eq!(t.store.get_memory(a.id).unwrap(), None);
    assert!(search(&t, "berlin").is_empty());
    let Selected::Ambiguous { count, examples } = t
        .store
        .remove_memory(MemorySelector::Containing("works"))
        .unwrap()
    else {
        panic!("expected ambiguity");
    };
    assert_eq!(count, 2);
    assert_eq!(examples.len(), 2);
    assert!(matches!(
        t.store.remove_memory(MemorySelector::Containing("Potsdam")).unwrap(),
        Selected::Found(m) if m.id == b.id
    ));
    assert!(matches!(
        t.store.remove_memory(MemorySelector::Id(c.id)).unwrap(),
        Selected::Found(_)
    ));
    for selector in [
        MemorySelector::Id(c.id),
        MemorySelector::Key("city"),
        MemorySelector::Containing(""),
        MemorySelector::Containing("absent"),
    ] {
        assert_eq!(t.store.remove_memory(selector).unwrap(), Selected::Missing);
    }
}

#[test]
fn invalid_memories_are_refused() {
    let t = TempStore::new();
    let field = |memory: NewMemory| match t.store.add_memory(&memory) {
        Err(StoreError::Invalid { field, .. }) => field,
        other => panic!("accepted: {other:?}"),
    };
    assert_eq!(field(new(" \n ")), "content");
    assert_eq!(field(new(&"x".repeat(MAX_MEMORY_CHARS + 1))), "content");
    assert_eq!(field(keyed(" ", "x", MemorySource::UserStated)), "key");
    assert_eq!(
        field(keyed(
            &"k".repeat(MAX_KEY_CHARS + 1),
            "x",
            MemorySource::UserStated
        )),
        "key"
    );
    let mut importance = new("x");
    importance.importance = Some(1.5);
    assert_eq!(field(importance), "importance");
    let mut nan = new("x");
    nan.importance = Some(f64::NAN);
    assert_eq!(field(nan), "importance");
    let mut tags = new("x");
    tags.tags = Some((0..=MAX_TAGS).map(|n| format!("t{n}")).collect());
    assert_eq!(field(tags), "tags");
    let mut long_tag = new("x");
    long_tag.tags = Some(vec!["t".repeat(MAX_TAG_CHARS + 1)]);
    assert_eq!(field(long_tag), "tags");
    let mut category = new("x");
    category.category = Some(String::new());
    assert_eq!(field(category), "category");
    let longest = add(&t, new(&"长".repeat(MAX_MEMORY_CHARS))).memory;
    assert_eq!(longest.content.chars().count(), MAX_MEMORY_CHARS);
    let bad_edit = MemoryEdit {
        content: Some(String::new()),
        ..MemoryEdit::default()
    };
    assert!(matches!(
        t.store
            .edit_memory(MemorySelector::Id(longest.id), &bad_edit),
        Err(StoreError::Invalid {
            field: "content",
            ..
        })
    ));
}
