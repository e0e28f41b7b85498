//! Model-written titles after the first reply: a separate small request (journaled, bounded,
//! stored nowhere in the chat), in the conversation's language; the first words stay when the
//! model fails, and a title the user chose is never replaced.

use hearth_engine::TITLE_PROMPT;

use crate::engine_turns::rig::*;

fn title(rig: &Rig, session: &str) -> String {
    rig.store.get_session(session).unwrap().unwrap().title
}

fn title_requests(server: &ScriptedServer) -> Vec<hearth_tests::RecordedRequest> {
    let asked = server.title_requests();
    assert!(asked
        .iter()
        .all(|r| r.body["messages"][0]["content"] == TITLE_PROMPT));
    asked
}

#[tokio::test]
async fn after_the_first_reply_the_model_titles_the_chat_in_a_separate_bounded_request() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Sow them indoors in March."));
    server.push_title(Reply::text("\"Sowing tomatoes\"").with_usage(50, 4));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    rig.send(
        &session,
        "When do I sow tomatoes?",
        CancellationToken::new(),
    )
    .await;
    assert_eq!(title(&rig, &session), "When do I sow tomatoes?");
    let written = rig.engine.write_title(&session).await.unwrap();
    assert_eq!(written.as_deref(), Some("Sowing tomatoes"));
    assert_eq!(title(&rig, &session), "Sowing tomatoes");

    let asked = title_requests(&server);
    assert_eq!(asked.len(), 1);
    let body = &asked[0].body;
    assert_eq!(body["max_tokens"], 40, "{body}");
    assert!(body.get("tools").is_none(), "no tools offered: {body}");
    let quoted = body["messages"][1]["content"].as_str().unwrap();
    assert!(quoted.contains("When do I sow tomatoes?") && quoted.contains("March"));
    // Nothing of it is stored in the chat.
    let stored = rig.store.list_messages(&session).unwrap();
    assert_eq!(stored.len(), 2);
    assert!(stored.iter().all(|m| !m.text().contains("Sowing tomatoes")));

    // Later replies do not title the chat again.
    server.push(Reply::text("Yes."));
    server.push_title(Reply::text("never asked for"));
    rig.send(&session, "Indoors?", CancellationToken::new())
        .await;
    assert_eq!(rig.engine.write_title(&session).await.unwrap(), None);
    assert_eq!(title_requests(&server).len(), 1);
}

#[tokio::test]
async fn a_chinese_conversation_gets_a_chinese_title() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("三月在室内播种。"));
    server.push_title(Reply::text("番茄播种时间"));
    let rig = rig(&server, |o| o.language = hearth_protocol::Language::ZhCn);
    let session = rig.session();
    rig.send(&session, "我什么时候种番茄？", CancellationToken::new())
        .await;
    let written = rig.engine.write_title(&session).await.unwrap();
    assert_eq!(written.as_deref(), Some("番茄播种时间"));
    assert_eq!(title(&rig, &session), "番茄播种时间");
    let asked = title_requests(&server);
    assert!(asked[0].body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .contains("我什么时候种番茄？"));
}

#[tokio::test]
async fn when_the_model_fails_the_first_words_stay() {
    let server = ScriptedServer::start().await;
    let rig = rig(&server, |_| {});
    // A refused title request, then an answer with no title in it.
    for failure in [
        Reply::status(400, r#"{"error":{"message":"no"}}"#),
        Reply::text(" \n \"\" "),
    ] {
        server.push(Reply::text("Sow them in March."));
        server.push_title(failure);
        let session = rig.session();
        rig.send(
            &session,
            "When do I sow tomatoes?",
            CancellationToken::new(),
        )
        .await;
        assert_eq!(rig.engine.write_title(&session).await.unwrap(), None);
        assert_eq!(title(&rig, &session), "When do I sow tomatoes?");
    }
    assert_eq!(title_requests(&server).len(), 2);
    // With no title scripted at all, the server refuses at once and the first words stay too.
    server.push(Reply::text("Sow them in March."));
    let session = rig.session();
    rig.send(&session, "And peppers?", CancellationToken::new())
        .await;
    assert_eq!(rig.engine.write_title(&session).await.unwrap(), None);
    assert_eq!(title(&rig, &session), "And peppers?");
}

#[test]
fn the_scripted_server_knows_a_title_request_by_its_prompt() {
    assert!(TITLE_PROMPT.starts_with(hearth_tests::model_server::TITLE_REQUEST_MARK));
}

#[tokio::test]
async fn a_title_the_user_chose_is_never_replaced() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Sow them in March."));
    let rig = rig(&server, |_| {});
    let session = rig.session();
    rig.send(
        &session,
        "When do I sow tomatoes?",
        CancellationToken::new(),
    )
    .await;
    rig.store.rename_session(&session, "Garden").unwrap();
    assert_eq!(rig.engine.write_title(&session).await.unwrap(), None);
    assert_eq!(title(&rig, &session), "Garden");
    assert!(title_requests(&server).is_empty(), "nobody was asked");
}
