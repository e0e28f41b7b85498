//! Risk per call: the job, process and terminal tools of every dialect say from the parsed
//! arguments which calls only read (never asked, run concurrently) and which run, change or
//! schedule something (asked); `cronjob authorize` is always asked, with the job shown.

use hearth_policy::catalogue;
use hearth_protocol::Confirmation;
use hearth_tools::{builtin_registry, register_jobs, Dialect, PreparedCall, Registry};

use crate::scheduling::{ok, Env};

/// The built-in tools of `dialect` plus its job tools over `env`'s store.
fn registry(dialect: Dialect, env: &Env) -> Registry {
    let mut registry = builtin_registry(dialect);
    if let Err(e) = register_jobs(&mut registry, env.store.clone(), None) {
        panic!("register: {e}");
    }
    registry
}

async fn prepare(registry: &Registry, tool: &str, args: &str) -> PreparedCall {
    match registry.prepare(tool, args).await {
        Ok(call) => call,
        Err(e) => panic!("{tool} {args} was not prepared: {e:?}"),
    }
}

/// What a call is: read-only, asked (high-risk), or asked every time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ReadOnly,
    Asks,
    AlwaysAsks,
}

fn kind(call: &PreparedCall) -> Kind {
    match (call.facts.high_risk, call.facts.mutates, call.always_ask) {
        (false, false, false) => Kind::ReadOnly,
        (true, true, false) => Kind::Asks,
        (true, true, true) => Kind::AlwaysAsks,
        other => panic!("unexpected facts {other:?} for {call:?}"),
    }
}

use Kind::{AlwaysAsks, Asks, ReadOnly};

/// The dialects offering a tool, its name, and calls (arguments) with what each does.
type Case = (
    &'static [Dialect],
    &'static str,
    &'static [(&'static str, Kind)],
);

/// Every dialect's job, process and pty calls, by what they do.
const CASES: &[Case] = {
    use Dialect::{Ceecore, Echo, Hearth, Picobot};
    &[
        (
            &[Hearth, Echo],
            "cronjob",
            &[
                (r#"{"action":"list"}"#, ReadOnly),
                (r#"{"action":"create"}"#, Asks),
                (r#"{"action":"delete"}"#, Asks),
                (r#"{"action":"trigger"}"#, Asks),
                (r#"{"action":"revoke"}"#, Asks),
                (r#"{"action":"authorize"}"#, AlwaysAsks),
            ],
        ),
        (
            &[Picobot],
            "cron_list",
            &[("{}", ReadOnly), (r#"{"status":"enabled"}"#, ReadOnly)],
        ),
        (&[Picobot], "cron_remove", &[(r#"{"job_id":"j"}"#, Asks)]),
        (&[Picobot], "cron_enable", &[(r#"{"job_id":"j"}"#, Asks)]),
        (&[Picobot], "cron_disable", &[(r#"{"job_id":"j"}"#, Asks)]),
        (
            &[Picobot],
            "cron_update",
            &[(r#"{"job_id":"j","prompt":"p"}"#, Asks)],
        ),
        (
            &[Picobot],
            "cron_add",
            &[(
                r#"{"schedule":"every 6 hours","prompt":"p","channel":"desktop","chat_id":"c"}"#,
                Asks,
            )],
        ),
        (
            &[Ceecore],
            "schedule_task",
            &[(
                r#"{"name":"n","schedule":"every 6 hours","action":"a"}"#,
                Asks,
            )],
        ),
        (
            &[Hearth, Echo],
            "process",
            &[
                (r#"{"action":"list"}"#, ReadOnly),
                (r#"{"action":"poll","process_id":"proc-1"}"#, ReadOnly),
                (r#"{"action":"start","command":"true"}"#, Asks),
                (r#"{"action":"stop","process_id":"proc-1"}"#, Asks),
            ],
        ),
        (
            &[Hearth, Echo, Picobot],
            "pty",
            &[
                (r#"{"action":"list"}"#, ReadOnly),
                (r#"{"action":"read","session_id":"pty-1"}"#, ReadOnly),
                (r#"{"action":"spawn"}"#, Asks),
                (r#"{"action":"write","input":"x"}"#, Asks),
                (r#"{"action":"kill","session_id":"pty-1"}"#, Asks),
            ],
        ),
    ]
};

#[tokio::test]
async fn reading_calls_are_read_only_and_running_calls_ask_in_every_dialect() {
    let env = Env::create();
    for dialect in Dialect::ALL {
        let registry = registry(dialect, &env);
        for (dialects, tool, calls) in CASES {
            let offered = registry.facts(tool).is_some();
            assert_eq!(offered, dialects.contains(&dialect), "{dialect} {tool}");
            if !offered {
                continue;
            }
            for (args, expected) in *calls {
                let call = prepare(&registry, tool, args).await;
                assert_eq!(kind(&call), *expected, "{dialect} {tool} {args}");
                // The call keeps the canonical tool's name and tags, whatever its risk.
                let tool_facts = registry.facts(tool);
                assert_eq!(
                    (Some(&call.facts.name), Some(&call.facts.capabilities)),
                    (
                        tool_facts.as_ref().map(|f| &f.name),
                        tool_facts.as_ref().map(|f| &f.capabilities)
                    ),
                    "{dialect} {tool}"
                );
                assert!(
                    call.facts.name == catalogue::CRONJOB.name
                        || call.facts.name == catalogue::PROCESS.name
                        || call.facts.name == catalogue::PTY.name,
                    "{}",
                    call.facts.name
                );
            }
        }
    }
}

#[tokio::test]
async fn authorize_is_confirmed_with_the_job_it_binds() {
    let env = Env::create();
    let registry = registry(Dialect::Hearth, &env);
    let create = r#"{"action":"create","name":"nightly","schedule":"every day at 23:00",
        "command":"Back up the notes","target_channel":"desktop","target_chat_id":"chat-7"}"#;
    ok(&registry, &env, "cronjob", create).await;
    let call = prepare(
        &registry,
        "cronjob",
        r#"{"action":"authorize","job_id":"nightly"}"#,
    )
    .await;
    assert_eq!(kind(&call), AlwaysAsks);
    // Sent typed (the UI words it in its language), written in English for the terminal.
    let Some(Confirmation::AuthorizeJob(job)) = call.confirmation.clone() else {
        panic!("{:?}", call.confirmation)
    };
    assert_eq!(
        (
            job.job.as_str(),
            job.instruction.as_str(),
            job.delivers_to.as_deref()
        ),
        ("nightly", "Back up the notes", Some("desktop:chat-7"))
    );
    assert_eq!(job.schedule["type"], "cron", "{:?}", job.schedule);
    let shown = Confirmation::AuthorizeJob(job).to_string();
    for part in [
        "Authorize job \"nightly\"",
        "Instruction: Back up the notes",
        "Frequency: ",
        "next run 20",
        "Delivers to: desktop:chat-7",
        "exec",
    ] {
        assert!(shown.contains(part), "{part:?} missing from: {shown}");
    }
    let ghost = prepare(
        &registry,
        "cronjob",
        r#"{"action":"authorize","job_id":"ghost"}"#,
    )
    .await;
    let Some(missing @ Confirmation::AuthorizeUnknownJob { .. }) = ghost.confirmation else {
        panic!("{:?}", ghost.confirmation)
    };
    let shown = missing.to_string();
    assert!(
        shown.contains("\"ghost\"") && shown.contains("cannot be shown"),
        "{shown}"
    );
    let list = prepare(&registry, "cronjob", r#"{"action":"list"}"#).await;
    assert_eq!((list.always_ask, list.confirmation), (false, None));
}

#[tokio::test]
async fn arguments_that_do_not_parse_are_refused_before_anything_is_decided() {
    let env = Env::create();
    let registry = registry(Dialect::Hearth, &env);
    for (tool, args) in [
        ("process", r#"{"action":"explode"}"#),
        ("cronjob", r#"{"action":"list","extra":1}"#),
        ("pty", "[1]"),
    ] {
        let error = registry.prepare(tool, args).await.err();
        assert_eq!(
            error.map(|e| e.kind),
            Some(hearth_tools::ErrorKind::InvalidArguments),
            "{tool} {args}"
        );
    }
}
