//! `desktop`, the built-in channel: `notify` into the current session or a named one, a
//! picture stored as an image, and an unknown session refused (nothing is created).

use hearth_protocol::{ContentPart, Role};
use hearth_store::NewSession;
use hearth_tools::ErrorKind;
use serde_json::json;

use super::Rig;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_and_pictures_reach_existing_desktop_sessions_only() {
    let rig = Rig::new(Vec::new(), Vec::new(), None);
    for id in ["desktop:here", "desktop:other"] {
        rig.store
            .create_session(&NewSession {
                id: id.into(),
                title: id.into(),
                model: None,
                workspace: None,
                tool_profile: "full".into(),
            })
            .unwrap();
    }
    let here = rig
        .call(
            "desktop:here",
            "notify",
            json!({"message": "the build finished"}),
        )
        .await
        .unwrap();
    assert_eq!(here["status"], "delivered");
    assert_eq!(here["session_id"], "desktop:here");
    assert_eq!(here["channel_kind"], "desktop");
    rig.call(
        "desktop:here",
        "notify",
        json!({"message": "hello", "channel": "desktop", "chat_id": "other"}),
    )
    .await
    .unwrap();
    rig.call(
        "desktop:here",
        "notify",
        json!({"message": "again", "chat_id": "desktop:other"}),
    )
    .await
    .unwrap();
    let messages = rig.store.list_messages("desktop:here").unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].role, Role::Assistant);
    assert_eq!(messages[0].text(), "the build finished");
    assert_eq!(rig.store.list_messages("desktop:other").unwrap().len(), 2);

    std::fs::create_dir_all(rig.workspace()).unwrap();
    std::fs::write(rig.workspace().join("dot.png"), b"\x89PNG\r\n\x1a\n").unwrap();
    rig.call(
        "desktop:here",
        "send_file",
        json!({"channel": "desktop", "chat_id": "other", "file_path": "dot.png", "caption": "a dot"}),
    )
    .await
    .unwrap();
    let last = rig
        .store
        .list_messages("desktop:other")
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(last.content[0], ContentPart::text("a dot"));
    assert!(
        matches!(&last.content[1], ContentPart::Image { mime_type, .. } if mime_type == "image/png"),
        "{:?}",
        last.content
    );

    let missing = rig
        .call(
            "desktop:here",
            "notify",
            json!({"message": "x", "chat_id": "missing"}),
        )
        .await
        .unwrap_err();
    assert_eq!(missing.kind, ErrorKind::DeliveryFailed, "{missing:?}");
    assert!(
        missing
            .message
            .contains("the session desktop:missing does not exist"),
        "{}",
        missing.message
    );
    assert!(rig.store.get_session("desktop:missing").unwrap().is_none());
    let blank = rig
        .call("desktop:here", "notify", json!({"message": "  "}))
        .await
        .unwrap_err();
    assert_eq!(blank.kind, ErrorKind::InvalidArguments);
}
