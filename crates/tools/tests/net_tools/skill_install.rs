//! `skill_install` from an archive served on 127.0.0.1 through the guard, from a local folder,
//! and refused for a private address the user did not allow (the canary sees nothing and
//! nothing is installed); the user's review of the skill and the separate approval of its
//! install script (`run_install`), declined ones leaving nothing.

use crate::net_tools::canary::canary;
use crate::net_tools::{net, server};
use hearth_tools::ErrorKind;
use serde_json::json;

#[tokio::test]
async fn an_archive_url_installs_through_the_guard() {
    let net = net();
    let installed = net
        .ok(
            "skill_install",
            json!({"source": "url", "location": server::url("/skills/pico-weather.zip")}),
        )
        .await;
    assert_eq!(installed["name"], "pico-weather");
    assert_eq!(installed["dialect"], "picobot");
    let skills = net.dir.path().join("skills");
    assert!(skills.join("pico-weather/SKILL.md").is_file());
    let left: Vec<String> = std::fs::read_dir(&skills)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["pico-weather"], "no download or staging left behind");

    let again = net
        .err(
            "skill_install",
            json!({"source": "url", "location": server::url("/skills/pico-weather.zip")}),
        )
        .await;
    assert!(again.message.contains("already installed"), "{again:?}");
}

#[tokio::test]
async fn a_private_address_is_refused_and_nothing_lands() {
    let net = net();
    let target = format!("http://127.0.0.1:{}/skill.zip", canary().port());
    let error = net
        .err(
            "skill_install",
            json!({"source": "url", "location": target}),
        )
        .await;
    assert_eq!(error.kind, ErrorKind::BlockedAddress, "{error:?}");
    canary().assert_untouched();
    let skills = net.dir.path().join("skills");
    assert_eq!(std::fs::read_dir(&skills).unwrap().count(), 0);
}

#[tokio::test]
async fn a_local_folder_installs() {
    let net = net();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../skills/tests/fixtures/release-notes");
    let installed = net
        .ok(
            "skill_install",
            json!({"source": "local", "location": fixture.display().to_string()}),
        )
        .await;
    assert_eq!(installed["name"], "release-notes");
    assert_eq!(installed["declares"]["allowed_tools"][0], "read_file");
}

/// A person at the conversation answering from a list, and what they were asked.
#[derive(Default)]
struct Person {
    answers: std::sync::Mutex<Vec<&'static str>>,
    asked: std::sync::Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl hearth_tools::Conversation for Person {
    fn language(&self) -> hearth_protocol::Language {
        hearth_protocol::Language::En
    }

    fn show(&self, _event: hearth_protocol::EngineEvent) {}

    async fn ask(&self, question: hearth_tools::Question) -> hearth_tools::Reply {
        self.asked.lock().unwrap().push(question.question);
        let mut answers = self.answers.lock().unwrap();
        if answers.is_empty() {
            hearth_tools::Reply::NoAnswer
        } else {
            hearth_tools::Reply::Answered(answers.remove(0).to_string())
        }
    }
}

/// A skill folder with an install script that leaves `installed.txt` in the skill folder.
fn with_install_script(dir: &std::path::Path) -> std::path::PathBuf {
    let skill = dir.join("setup-notes");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: setup-notes\ndescription: Keeps notes after a setup step.\nallowed-tools: read_file\n---\nKeep notes.\n",
    )
    .unwrap();
    std::fs::write(
        skill.join("scripts/install.sh"),
        "#!/usr/bin/env bash\necho ready > installed.txt\n",
    )
    .unwrap();
    skill
}

async fn install_with(
    answers: Vec<&'static str>,
) -> (
    crate::net_tools::Net,
    Result<serde_json::Value, hearth_tools::ToolError>,
    Vec<String>,
) {
    let net = net();
    let source = with_install_script(net.dir.path());
    let person = std::sync::Arc::new(Person {
        answers: std::sync::Mutex::new(answers),
        ..Person::default()
    });
    let mut ctx = net.context();
    ctx.conversation = Some(person.clone());
    let args = json!({"source": "local", "location": source, "run_install": true});
    let result = net
        .registry
        .dispatch("skill_install", &args.to_string(), &ctx)
        .await;
    let asked = person.asked.lock().unwrap().clone();
    (net, result, asked)
}

#[tokio::test]
async fn the_user_reviews_the_skill_and_approves_its_install_script_separately() {
    let (net, result, asked) = install_with(vec!["Install", "Run the install script"]).await;
    let installed = result.unwrap();
    assert_eq!(installed["install_script"]["exit_code"], 0, "{installed}");
    let folder = net.dir.path().join("skills/setup-notes");
    assert_eq!(
        std::fs::read_to_string(folder.join("installed.txt")).unwrap(),
        "ready\n"
    );
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[0].contains("Install the skill `setup-notes`?"),
        "{}",
        asked[0]
    );
    assert!(asked[0].contains("Keeps notes after a setup step."));
    assert!(
        asked[0].contains("allowed-tools: read_file"),
        "{}",
        asked[0]
    );
    assert!(asked[1].contains("`scripts/install.sh`"), "{}", asked[1]);
}

#[tokio::test]
async fn a_declined_review_or_install_script_leaves_nothing() {
    for answers in [vec!["Cancel"], vec!["Install", "Cancel"], vec![]] {
        let (net, result, _) = install_with(answers.clone()).await;
        let error = result.unwrap_err();
        assert_eq!(
            error.kind,
            ErrorKind::NotPermitted,
            "{answers:?}: {error:?}"
        );
        let skills = net.dir.path().join("skills");
        let left: Vec<_> = std::fs::read_dir(&skills).unwrap().collect();
        assert!(left.is_empty(), "{answers:?}: {left:?}");
    }
}

#[tokio::test]
async fn an_install_script_never_runs_without_someone_to_approve_it() {
    let net = net();
    let source = with_install_script(net.dir.path());
    let error = net
        .err(
            "skill_install",
            json!({"source": "local", "location": source, "run_install": true}),
        )
        .await;
    assert_eq!(error.kind, ErrorKind::NotPermitted, "{error:?}");
    assert!(!net.dir.path().join("skills/setup-notes").exists());
}
