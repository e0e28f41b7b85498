//! Tests of session storage.

use hearth_protocol::Role;

use crate::test_support::{assert_search_indexes_exact, new_session, TempStore};
use crate::{AuditDecision, AuditEntry, StoreError};

fn ids(t: &TempStore) -> Vec<String> {
    t.store
        .list_sessions()
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect()
}

fn assert_not_found(result: crate::Result<()>, id: &str) {
    match result {
        Err(
            err @ StoreError::NotFound {
                what: "session", ..
            },
        ) => {
            assert_eq!(err.to_string(), format!("session not found: {id}"));
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
}

#[test]
fn create_and_get_round_trip() {
    let t = TempStore::new();
    let created = t.session("desktop:1");
    assert_eq!(created.id, "desktop:1");
    assert_eq!(created.title, "Chat desktop:1");
    assert_eq!(created.model.as_deref(), Some("gpt-test"));
    assert_eq!(created.workspace.as_deref(), Some("/tmp/ws"));
    assert_eq!(created.tool_profile, "coding");
    assert!(!created.pinned);
    assert_eq!(created.message_count, 0);
    assert!(created.created_at > 0);
    assert_eq!(created.created_at, created.updated_at);
    assert_eq!(t.store.get_session("desktop:1").unwrap(), Some(created));
    assert_eq!(t.store.get_session("desktop:missing").unwrap(), None);

    let mut bare = new_session("cli:2");
    bare.model = None;
    bare.workspace = None;
    let bare = t.store.create_session(&bare).unwrap();
    assert_eq!((bare.model, bare.workspace), (None, None));
}

#[test]
fn a_taken_id_is_refused() {
    let t = TempStore::new();
    t.session("desktop:1");
    let err = t
        .store
        .create_session(&new_session("desktop:1"))
        .unwrap_err();
    assert!(err.to_string().contains("UNIQUE"), "{err}");
    assert_eq!(t.store.list_sessions().unwrap().len(), 1);
}

#[test]
fn list_puts_pinned_first_then_most_recently_active() {
    let t = TempStore::new();
    for id in ["a", "b", "c"] {
        t.session(id);
        t.tick();
    }
    assert_eq!(ids(&t), ["c", "b", "a"]);

    t.store.touch_session("a").unwrap();
    assert_eq!(ids(&t), ["a", "c", "b"]);

    t.tick();
    t.say("b", Role::User, "hello");
    assert_eq!(ids(&t), ["b", "a", "c"]);

    t.store.set_session_pinned("c", true).unwrap();
    assert_eq!(ids(&t), ["c", "b", "a"]);

    t.tick();
    t.store.touch_session("a").unwrap();
    assert_eq!(ids(&t), ["c", "a", "b"]);

    t.store.set_session_pinned("c", false).unwrap();
    assert_eq!(ids(&t), ["a", "b", "c"]);

    let counts: Vec<i64> = t
        .store
        .list_sessions()
        .unwrap()
        .iter()
        .map(|s| s.message_count)
        .collect();
    assert_eq!(counts, [0, 1, 0]);
}

#[test]
fn metadata_updates_change_fields_but_not_activity() {
    let t = TempStore::new();
    let before = t.session("s");
    t.tick();
    t.store.rename_session("s", "Trip to 北京").unwrap();
    t.store.set_session_pinned("s", true).unwrap();
    t.store.set_session_model("s", Some("claude-x")).unwrap();
    t.store
        .set_session_workspace("s", Some("/home/me/proj"))
        .unwrap();
    let after = t.store.get_session("s").unwrap().unwrap();
    assert_eq!(after.title, "Trip to 北京");
    assert!(after.pinned);
    assert_eq!(after.model.as_deref(), Some("claude-x"));
    assert_eq!(after.workspace.as_deref(), Some("/home/me/proj"));
    assert_eq!(after.updated_at, before.updated_at);

    t.store.set_session_model("s", None).unwrap();
    t.store.set_session_workspace("s", None).unwrap();
    let cleared = t.store.get_session("s").unwrap().unwrap();
    assert_eq!((cleared.model, cleared.workspace), (None, None));

    t.tick();
    t.store.touch_session("s").unwrap();
    let touched = t.store.get_session("s").unwrap().unwrap();
    assert!(touched.updated_at > before.updated_at);
}

#[test]
fn unknown_sessions_are_not_found() {
    let t = TempStore::new();
    assert_not_found(t.store.rename_session("nope", "x"), "nope");
    assert_not_found(t.store.set_session_pinned("nope", true), "nope");
    assert_not_found(t.store.set_session_model("nope", None), "nope");
    assert_not_found(t.store.set_session_workspace("nope", Some("/x")), "nope");
    assert_not_found(t.store.touch_session("nope"), "nope");
    assert_not_found(t.store.delete_session("nope"), "nope");
}

#[test]
fn delete_cascades_to_messages_and_the_search_index_but_keeps_the_audit_log() {
    let t = TempStore::new();
    t.session("gone");
    t.session("kept");
    let doomed = t.say("gone", Role::User, "weather report for 北京天气");
    t.say("kept", Role::User, "another weather report");
    t.store
        .record_audit(&AuditEntry {
            session_id: Some("gone".into()),
            tool: "exec".into(),
            arguments: "{}".into(),
            decision: AuditDecision::Deny,
            reason: None,
            actor: "policy".into(),
            reason_code: None,
        })
        .unwrap();

    t.store.delete_session("gone").unwrap();
    assert_eq!(t.store.get_session("gone").unwrap(), None);
    assert_eq!(t.store.get_message(doomed.id).unwrap(), None);
    assert!(t.store.list_messages("gone").unwrap().is_empty());
    let hits = t.store.search_messages("weather", 10, None, None).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].session_id, "kept");
    assert!(t
        .store
        .search_messages("北京", 10, None, None)
        .unwrap()
        .is_empty());
    assert!(
        t.store
            .search_messages("eport", 10, None, None)
            .unwrap()
            .len()
            == 1
    );
    assert_eq!(t.store.list_audit(10).unwrap().len(), 1);
    assert_eq!(t.store.integrity_check().unwrap(), "ok");
    // The index tables agree with the messages table.
    assert_search_indexes_exact(&t.store.conn());
}

#[test]
fn an_unused_new_chat_is_found_and_a_used_renamed_pinned_or_other_channel_one_is_not() {
    let t = TempStore::new();
    let titles = ["Chat desktop:fresh".to_string(), "新对话".to_string()];
    assert_eq!(
        t.store.find_unused_session("desktop:", &titles).unwrap(),
        None
    );
    t.session("desktop:fresh");
    t.tick();
    for id in [
        "desktop:used",
        "desktop:renamed",
        "desktop:pinned",
        "cli:fresh",
    ] {
        t.session(id);
        t.tick();
    }
    t.say("desktop:used", Role::User, "hello");
    t.store.rename_session("desktop:renamed", "mine").unwrap();
    t.store.set_session_pinned("desktop:pinned", true).unwrap();
    t.store.rename_session("desktop:pinned", "新对话").unwrap();
    t.store.rename_session("cli:fresh", "新对话").unwrap();
    let found = t.store.find_unused_session("desktop:", &titles).unwrap();
    assert_eq!(found.map(|s| s.id).as_deref(), Some("desktop:fresh"));
}

#[test]
fn retitling_replaces_only_the_title_it_expects() {
    let t = TempStore::new();
    t.session("desktop:1");
    assert!(t
        .store
        .retitle_session("desktop:1", "Chat desktop:1", "Watering plants")
        .unwrap());
    // The user renamed it meanwhile: the engine's title does not overwrite theirs.
    t.store.rename_session("desktop:1", "mine").unwrap();
    assert!(!t
        .store
        .retitle_session("desktop:1", "Watering plants", "Plants")
        .unwrap());
    let title = t.store.get_session("desktop:1").unwrap().unwrap().title;
    assert_eq!(title, "mine");
}
