//! A skill run's message: what the user typed is the stored text, the skill (name, dialect,
//! instructions) a part beside it; the model reads the instructions, and both survive reopening
//! the database; the chat's titles come from the typed text; content given again to a run keeps
//! one skill part.

use hearth_engine::SkillRun;
use hearth_protocol::{typed_text, SkillDialect};

use crate::engine_turns::rig::*;

const INSTRUCTIONS: &str = "Ask for the dates, then list three sights a day.";

/// A `trip-planner` skill in the rig's data dir, loaded for a run.
fn trip_planner(rig: &Rig) -> SkillRun {
    let home = std::path::PathBuf::from(rig.home_path());
    let folder = home.join("skills/trip-planner");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("SKILL.md"),
        format!("---\nname: trip-planner\ndescription: Plans trips.\n---\n{INSTRUCTIONS}\n"),
    )
    .unwrap();
    SkillRun::load(&home, &home.join("workspace"), "trip-planner").unwrap()
}

/// The user messages of `session`, read from a store opened anew on the rig's database.
fn reopened_user_messages(rig: &Rig, session: &str) -> Vec<hearth_protocol::Message> {
    let path = std::path::Path::new(&rig.home_path()).join("hearth.db");
    let store = Store::open(&path).unwrap();
    let messages = store.list_messages(session).unwrap();
    messages
        .into_iter()
        .filter(|m| m.role == Role::User)
        .collect()
}

#[tokio::test]
async fn a_skill_run_stores_the_typed_text_with_the_skill_beside_it() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Day one: the Alfama."));
    let rig = rig(&server, |_| {});
    let run = trip_planner(&rig);
    let session = rig.session();
    let typed = vec![ContentPart::text("plan a trip to Lisbon")];
    rig.engine
        .send(
            &session,
            run.content(typed),
            &|_| {},
            CancellationToken::new(),
        )
        .await
        .unwrap();

    let said = server.model_requests()[0].body["messages"].to_string();
    assert!(said.contains(INSTRUCTIONS), "the instructions: {said}");
    assert!(said.contains("Use the skill `trip-planner`"), "{said}");
    assert!(said.contains("plan a trip to Lisbon"), "{said}");

    let users = reopened_user_messages(&rig, &session);
    assert_eq!(users.len(), 1);
    let content = &users[0].content;
    assert_eq!(typed_text(content), "plan a trip to Lisbon");
    match &content[..] {
        [ContentPart::Skill {
            name,
            dialect,
            folder,
            instructions_file,
            instructions,
        }, ContentPart::Text { text }] => {
            assert_eq!(name, "trip-planner");
            assert_eq!(*dialect, SkillDialect::Echo);
            assert!(folder.ends_with("trip-planner"), "{folder}");
            assert_eq!(instructions_file, "SKILL.md");
            assert!(instructions.contains(INSTRUCTIONS), "{instructions}");
            assert_eq!(text, "plan a trip to Lisbon");
        }
        other => panic!("typed text with the skill beside it, got {other:?}"),
    }
    let title = rig.store.get_session(&session).unwrap().unwrap().title;
    assert_eq!(
        title, "plan a trip to Lisbon",
        "the chat is named by what was typed"
    );
    // The model-written title is asked about what was typed, not the instructions.
    server.push_title(Reply::text("Lisbon trip"));
    let written = rig.engine.write_title(&session).await.unwrap();
    assert_eq!(written.as_deref(), Some("Lisbon trip"));
    let asked = server.title_requests()[0].body["messages"].to_string();
    assert!(
        asked.contains("plan a trip to Lisbon") && !asked.contains(INSTRUCTIONS),
        "{asked}"
    );
}

#[tokio::test]
async fn a_skill_run_with_nothing_typed_asks_the_model_to_carry_out_the_skill() {
    let server = ScriptedServer::start().await;
    server.push(Reply::text("Where to?"));
    let rig = rig(&server, |_| {});
    let run = trip_planner(&rig);
    let session = rig.session();
    rig.engine
        .send(
            &session,
            run.content(Vec::new()),
            &|_| {},
            CancellationToken::new(),
        )
        .await
        .unwrap();

    let said = server.model_requests()[0].body["messages"].to_string();
    assert!(said.contains(INSTRUCTIONS), "{said}");
    assert!(
        said.contains("Carry out the skill `trip-planner`"),
        "{said}"
    );
    let users = reopened_user_messages(&rig, &session);
    assert_eq!(typed_text(&users[0].content), "");
    assert!(matches!(&users[0].content[..], [ContentPart::Skill { .. }]));
}

#[tokio::test]
async fn content_given_again_to_a_run_keeps_one_skill_part_and_the_new_text() {
    let server = ScriptedServer::start().await;
    let rig = rig(&server, |_| {});
    let run = trip_planner(&rig);
    // An edit sends the edited text with the stored skill part: the run's own part replaces it.
    let stored = run.content(vec![ContentPart::text("plan a trip to Lisbon")]);
    let edited = vec![ContentPart::text("plan a trip to Porto"), stored[0].clone()];
    let content = run.content(edited);
    assert_eq!(content.len(), 2, "{content:?}");
    assert!(matches!(&content[0], ContentPart::Skill { name, .. } if name == "trip-planner"));
    assert_eq!(typed_text(&content), "plan a trip to Porto");
}
