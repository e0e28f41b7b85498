//! Tests of session summaries.

use hearth_protocol::Role;

use crate::test_support::TempStore;
use crate::StoreError;

use super::MAX_SUMMARY_RESULTS;

fn found(t: &TempStore, query: &str, session: Option<&str>) -> Vec<i64> {
    t.store
        .search_summaries(query, session, None, None, 10)
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect()
}

#[test]
fn summaries_are_stored_and_the_latest_is_known() {
    let t = TempStore::new();
    t.session("s");
    assert_eq!(t.store.latest_session_summary("s").unwrap(), None);
    let first = t.say("s", Role::User, "hello");
    let last = t.say("s", Role::Assistant, "hi");
    let one = t
        .store
        .add_session_summary("s", "  Greetings were exchanged.\n", first.id, last.id)
        .unwrap();
    assert_eq!(one.summary, "Greetings were exchanged.");
    assert_eq!(
        (one.from_message_id, one.to_message_id),
        (first.id, last.id)
    );
    assert_eq!(one.session_title, "Chat s");
    t.tick();
    let two = t
        .store
        .add_session_summary("s", "More greetings.", last.id, last.id)
        .unwrap();
    let t = t.reopen();
    assert_eq!(t.store.latest_session_summary("s").unwrap(), Some(two));
    assert_eq!(t.store.latest_session_summary("nope").unwrap(), None);
}

#[test]
fn bad_summaries_are_refused() {
    let t = TempStore::new();
    t.session("s");
    assert!(matches!(
        t.store.add_session_summary("missing", "x", 1, 2),
        Err(StoreError::NotFound {
            what: "session",
            ..
        })
    ));
    assert!(matches!(
        t.store.add_session_summary("s", " \n", 1, 2),
        Err(StoreError::Invalid {
            field: "summary",
            ..
        })
    ));
    assert!(matches!(
        t.store.add_session_summary("s", "x", 5, 4),
        Err(StoreError::Invalid {
            field: "to_message_id",
            ..
        })
    ));
}

#[test]
fn search_finds_chinese_and_english_with_filters() {
    let t = TempStore::new();
    t.session("a");
    t.session("b");
    let kyoto = t
        .store
        .add_session_summary("a", "用户计划去京都旅行，偏好温泉旅馆。", 1, 5)
        .unwrap();
    t.tick();
    let db = t
        .store
        .add_session_summary(
            "b",
            "Migrated the Postgres database; backups verified.",
            1,
            3,
        )
        .unwrap();
    assert_eq!(found(&t, "京都", None), [kyoto.id]);
    assert_eq!(found(&t, "温泉旅馆", None), [kyoto.id]);
    assert_eq!(found(&t, "postgres", None), [db.id]);
    assert_eq!(found(&t, "backup", None), [db.id], "partial words match");
    assert_eq!(found(&t, "京都 postgres", Some("b")), [db.id]);
    assert!(found(&t, "", None).is_empty());
    assert!(found(&t, "大阪", None).is_empty());
    let since = t
        .store
        .search_summaries("京都 postgres", None, Some(db.created_at), None, 10)
        .unwrap();
    assert_eq!(since, std::slice::from_ref(&db));
    let until = t
        .store
        .search_summaries("京都 postgres", None, None, Some(kyoto.created_at), 10)
        .unwrap();
    assert_eq!(until, [kyoto]);
}

#[test]
fn search_ranks_and_caps() {
    let t = TempStore::new();
    t.session("s");
    for n in 0..60 {
        let text = if n == 7 {
            "kubernetes kubernetes cluster upgrade".to_string()
        } else {
            format!("routine note {n} mentioning kubernetes once among many other words here")
        };
        t.store.add_session_summary("s", &text, n, n).unwrap();
    }
    let hits = t
        .store
        .search_summaries("kubernetes", None, None, None, 500)
        .unwrap();
    assert_eq!(hits.len(), MAX_SUMMARY_RESULTS);
    assert_eq!(hits[0].from_message_id, 7, "the densest match first");
}

#[test]
fn deleting_a_session_deletes_its_summaries() {
    let t = TempStore::new();
    t.session("s");
    t.store
        .add_session_summary("s", "alpha beta", 1, 1)
        .unwrap();
    t.store.delete_session("s").unwrap();
    assert!(found(&t, "alpha", None).is_empty());
    assert_eq!(t.store.integrity_check().unwrap(), "ok");
}
