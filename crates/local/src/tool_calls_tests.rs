use super::*;

fn split(tools: &[&str], chunks: &[&str]) -> Vec<Piece> {
    let mut splitter = CallSplitter::new(tools.iter().map(|t| t.to_string()).collect());
    let mut out = Vec::new();
    for chunk in chunks {
        out.extend(splitter.push(chunk));
    }
    out.extend(splitter.finish());
    // Adjacent text pieces joined, as the reader sees them.
    let mut joined: Vec<Piece> = Vec::new();
    for piece in out {
        match (joined.last_mut(), piece) {
            (Some(Piece::Text(last)), Piece::Text(next)) => last.push_str(&next),
            (_, piece) => joined.push(piece),
        }
    }
    joined
}

fn text(t: &str) -> Piece {
    Piece::Text(t.into())
}

fn call(name: &str, arguments: &str) -> Piece {
    Piece::Call {
        name: name.into(),
        arguments: arguments.into(),
    }
}

#[test]
fn a_hermes_call_split_across_chunks_becomes_a_call_after_the_text() {
    let pieces = split(
        &["calculator"],
        &[
            "Let me add",
            " that.\n<tool",
            "_call>\n{\"name\": \"calculator\", ",
            "\"arguments\": {\"expression\": \"2+2\"}}\n</tool_",
            "call>",
        ],
    );
    assert_eq!(
        pieces,
        [
            text("Let me add that.\n"),
            call("calculator", "{\"expression\":\"2+2\"}")
        ]
    );
}

#[test]
fn text_streams_at_once_except_a_possible_trigger_start() {
    let mut splitter = CallSplitter::new(vec!["calculator".into()]);
    assert_eq!(splitter.push("Hello <to"), [text("Hello ")]);
    assert_eq!(splitter.push("day> is fine"), [text("<today> is fine")]);
    assert!(splitter.finish().is_empty());
}

#[test]
fn a_bare_json_reply_naming_an_offered_tool_is_a_call_and_others_stay_text() {
    assert_eq!(
        split(
            &["get_weather"],
            &["{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}"]
        ),
        [call("get_weather", "{\"city\":\"Oslo\"}")]
    );
    assert_eq!(
        split(
            &["get_weather"],
            &["{\"name\": \"rm\", \"parameters\": {}}"]
        ),
        [text("{\"name\": \"rm\", \"parameters\": {}}")]
    );
    assert_eq!(
        split(&["a", "b"], &["[TOOL_CALLS]", "[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]"]),
        [call("a", "{}"), call("b", "{\"x\":1}")]
    );
}

#[test]
fn a_broken_call_comes_out_as_the_text_the_model_wrote() {
    assert_eq!(
        split(&["calculator"], &["<tool_call>{\"name\": \"calc"]),
        [text("<tool_call>{\"name\": \"calc")]
    );
    assert_eq!(
        split(&["calculator"], &["<tool_call>not json</tool_call> after"]),
        [text("<tool_call>not json</tool_call> after")]
    );
}

#[test]
fn without_tools_braces_stream_as_text() {
    let mut splitter = CallSplitter::new(Vec::new());
    assert_eq!(splitter.push("{\"a\": 1}"), [text("{\"a\": 1}")]);
}
