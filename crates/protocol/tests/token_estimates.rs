//! `estimate_tokens` on the cases in `token_estimates.json`, shared with the UI's test.

use hearth_protocol::estimate_tokens;
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    text: String,
    tokens: usize,
    about: String,
}

#[test]
fn the_shared_cases_hold() {
    let cases: Vec<Case> = serde_json::from_str(include_str!("token_estimates.json")).unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        assert_eq!(
            estimate_tokens(&case.text),
            case.tokens,
            "{}: {:?}",
            case.about,
            case.text
        );
    }
}
