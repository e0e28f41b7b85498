//! `skill_install` from an archive served on 127.0.0.1 through the guard, from a local folder,
//! and refused for a private address the user did not allow (the canary sees nothing and
//! nothing is installed).

use crate::canary::canary;
use crate::{net, server};
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
