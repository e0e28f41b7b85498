//! Tests of contradictions: detection, the precedence of user-stated memories, listing,
//! resolution and what removal does to open ones.

use super::tests::{add, keyed, new};
use super::*;
use crate::test_support::TempStore;
use crate::StoreError;

fn model(content: &str) -> NewMemory {
    NewMemory::new(content, MemorySource::ModelInferred)
}

fn open(t: &TempStore) -> Vec<Contradiction> {
    let (list, total) = t
        .store
        .list_contradictions(Some(ContradictionStatus::Open), 0, 50)
        .unwrap();
    assert_eq!(list.len(), total);
    list
}

fn searched(t: &TempStore, query: &str) -> Vec<i64> {
    let page = t
        .store
        .search_memories(query, &MemoryFilter::default(), 10)
        .unwrap();
    page.memories.iter().map(|m| m.id).collect()
}

fn resolve(t: &TempStore, id: i64, winner: i64) -> Resolution {
    t.store.resolve_contradiction(id, winner).unwrap()
}

#[test]
fn equal_ranks_stay_side_by_side_until_resolved() {
    let t = TempStore::new();
    let a = add(&t, new("用户每天喝3杯咖啡")).memory;
    let out = add(&t, new("用户每天喝5杯咖啡"));
    assert_eq!(out.action, AddAction::Added);
    let b = out.memory;
    assert!(!b.pending);
    let c = out.contradiction.unwrap();
    assert_eq!((c.memory_a, c.memory_b), (a.id, b.id));
    assert_eq!(
        (c.content_a.as_str(), c.content_b.as_str()),
        ("用户每天喝3杯咖啡", "用户每天喝5杯咖啡")
    );
    assert_eq!(
        c.reason,
        "different numbers about the same subject (3 vs 5)"
    );
    assert_eq!(
        (c.status, c.winner_id, c.resolved_at, c.held_back),
        (ContradictionStatus::Open, None, None, false)
    );
    assert_eq!(open(&t), std::slice::from_ref(&c));
    assert_eq!(searched(&t, "咖啡").len(), 2);

    let Resolution::Resolved {
        contradiction,
        winner,
        removed_id,
    } = resolve(&t, c.id, b.id)
    else {
        panic!("not resolved");
    };
    assert_eq!(removed_id, Some(a.id));
    assert_eq!(winner.id, b.id);
    assert_eq!(contradiction.status, ContradictionStatus::Resolved);
    assert_eq!(contradiction.winner_id, Some(b.id));
    assert!(contradiction.resolved_at.is_some());
    assert_eq!(t.store.get_memory(a.id).unwrap(), None);
    assert_eq!(searched(&t, "咖啡"), [b.id]);
    assert!(open(&t).is_empty());
    let (all, total) = t.store.list_contradictions(None, 0, 50).unwrap();
    assert_eq!((all, total), (vec![contradiction.clone()], 1));
    assert_eq!(
        resolve(&t, c.id, b.id),
        Resolution::AlreadyResolved(contradiction)
    );
    assert!(matches!(
        t.store.resolve_contradiction(999, b.id),
        Err(StoreError::NotFound {
            what: "contradiction",
            ..
        })
    ));
}

#[test]
fn a_model_inference_is_held_back_by_what_the_user_said() {
    let t = TempStore::new();
    let mut stated = keyed(
        "coffee",
        "prefers dark roast coffee",
        MemorySource::UserStated,
    );
    stated.pinned = Some(true);
    let stated = add(&t, stated).memory;
    let out = add(&t, model("doesn't prefer dark roast coffee"));
    assert_eq!(out.action, AddAction::HeldBack);
    let held = out.memory;
    assert!(held.pending);
    let c = out.contradiction.unwrap();
    assert!(c.held_back);
    assert_eq!(
        c.reason,
        "one memory negates the other about the same subject"
    );
    assert_eq!(
        searched(&t, "roast"),
        [stated.id],
        "pending memories are not searched"
    );
    let listed = t
        .store
        .list_memories(&MemoryFilter::default(), 0, 50)
        .unwrap();
    assert_eq!(listed.total, 1);
    assert!(t
        .store
        .pinned_and_relevant("roast coffee", 100)
        .unwrap()
        .iter()
        .all(|m| m.id == stated.id));
    assert_eq!(
        t.store.get_memory(stated.id).unwrap(),
        Some(stated.clone()),
        "untouched"
    );

    let other = add(&t, new("lives in Berlin")).memory;
    assert!(matches!(
        resolve(&t, c.id, other.id),
        Resolution::NotAParty(_)
    ));
    let Resolution::Resolved { winner, .. } = resolve(&t, c.id, held.id) else {
        panic!("not resolved");
    };
    assert!(!winner.pending);
    assert_eq!(
        winner.key.as_deref(),
        Some("coffee"),
        "the key moves to the winner"
    );
    assert!(winner.pinned, "so does the pin");
    assert_eq!(searched(&t, "roast"), [held.id]);
}

#[test]
fn a_user_statement_overwrites_a_model_inference() {
    let t = TempStore::new();
    let inferred = add(&t, model("drinks 3 cups of coffee a day")).memory;
    let out = add(&t, new("drinks 5 cups of coffee a day"));
    assert_eq!(out.action, AddAction::Overwritten);
    assert_eq!(out.memory.id, inferred.id);
    assert_eq!(out.memory.source, MemorySource::UserStated);
    assert_eq!(out.memory.content, "drinks 5 cups of coffee a day");
    assert_eq!(
        out.previous_content.as_deref(),
        Some("drinks 3 cups of coffee a day")
    );
    let c = out.contradiction.unwrap();
    assert_eq!(c.status, ContradictionStatus::Resolved);
    assert_eq!(
        (c.memory_a, c.memory_b, c.winner_id),
        (inferred.id, inferred.id, Some(inferred.id))
    );
    assert_eq!(c.content_a, "drinks 3 cups of coffee a day");
    assert!(c
        .reason
        .ends_with("the user-stated memory replaced the model-inferred one"));
    assert!(open(&t).is_empty());
    // A model inference cannot take it back.
    let back = add(&t, model("drinks 3 cups of coffee a day"));
    assert_eq!(back.action, AddAction::HeldBack);
}

#[test]
fn keys_follow_the_same_precedence() {
    let t = TempStore::new();
    let stated = add(
        &t,
        keyed("birthday", "born on May 1", MemorySource::UserStated),
    )
    .memory;
    let out = add(
        &t,
        keyed("birthday", "born on June 2", MemorySource::ModelInferred),
    );
    assert_eq!(out.action, AddAction::HeldBack);
    assert_eq!(out.memory.key, None);
    let c = out.contradiction.unwrap();
    assert_eq!(
        c.reason,
        "same key \"birthday\": a model-inferred memory does not overwrite a user-stated one"
    );
    assert_eq!(
        t.store.get_memory(stated.id).unwrap().unwrap().content,
        "born on May 1"
    );
    let Resolution::Resolved {
        winner, removed_id, ..
    } = resolve(&t, c.id, out.memory.id)
    else {
        panic!("not resolved");
    };
    assert_eq!(removed_id, Some(stated.id));
    assert_eq!(winner.key.as_deref(), Some("birthday"));
    assert_eq!(winner.content, "born on June 2");
    let over = add(
        &t,
        keyed("birthday", "born on May 1", MemorySource::UserStated),
    );
    assert_eq!(
        over.action,
        AddAction::Overwritten,
        "a user statement overwrites"
    );
}

#[test]
fn removing_a_side_settles_its_open_contradictions() {
    let t = TempStore::new();
    let stated = add(&t, new("用户喜欢喝绿茶")).memory;
    let held = add(&t, model("用户不喜欢喝绿茶"));
    assert_eq!(held.action, AddAction::HeldBack);
    let c = held.contradiction.unwrap();
    t.store
        .remove_memory(MemorySelector::Id(stated.id))
        .unwrap();
    let settled = t.store.list_contradictions(None, 0, 10).unwrap().0;
    assert_eq!(settled[0].id, c.id);
    assert_eq!(settled[0].winner_id, Some(held.memory.id));
    let now = t.store.get_memory(held.memory.id).unwrap().unwrap();
    assert!(!now.pending, "nothing holds it back any more");
    assert_eq!(searched(&t, "绿茶"), [now.id]);
}

#[test]
fn other_targets_and_keys_do_not_contradict() {
    let t = TempStore::new();
    add(&t, new("the office printer is on floor 3"));
    let mut env = new("the office printer is on floor 4");
    env.target = MemoryTarget::Environment;
    assert_eq!(add(&t, env).contradiction, None);
    add(
        &t,
        keyed(
            "home_floor",
            "apartment on floor 3 of the building",
            MemorySource::UserStated,
        ),
    );
    let other_key = keyed(
        "work_floor",
        "apartment on floor 5 of the building",
        MemorySource::UserStated,
    );
    assert_eq!(add(&t, other_key).contradiction, None);
    assert!(open(&t).is_empty());
}
