//! Renders `events.ts` (the `Events` table: every event of `crate::events` by name, with its
//! payload type) into the ts-rs bindings folder, and the bindings of the payloads' types.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ts_rs::{Config, TS};

use super::export::{doc_line, file};
use super::Ts;

const HEADER: &str = "// Generated from src-tauri/src/events.rs by `cargo test -p hearth --lib \
contract`: do not edit.\n";

/// One event the app sends the window: its name, its doc comment and its payload's type.
pub struct Event {
    pub name: &'static str,
    docs: String,
    pub(super) payload: Ts,
}

impl Event {
    /// The event `name` carrying a `P`, documented by the lines of its doc comment.
    pub fn of<P: TS + 'static + ?Sized>(name: &'static str, docs: &[&str]) -> Self {
        let docs: Vec<&str> = docs.iter().map(|line| line.trim()).collect();
        Self {
            name,
            docs: docs.join(" "),
            payload: Ts::exact::<P>(),
        }
    }
}

/// The events' table as TypeScript, with the imports of the types it names.
pub fn render(events: &[Event], cfg: &Config) -> String {
    let mut imports = BTreeMap::new();
    let mut body = String::from(
        "/** Every event the app sends the window, by name: the payload its listeners receive \
(`null` for none). */\nexport type Events = {\n",
    );
    for event in events {
        imports.extend((event.payload.imports)(cfg));
        doc_line(&mut body, &event.docs);
        let _ = writeln!(body, "  {:?}: {};", event.name, (event.payload.name)(cfg));
    }
    body.push_str("};\n");
    file(HEADER, "", imports, &body)
}
