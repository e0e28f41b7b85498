//! Renders `commands.ts` (the `Commands` table), with the pieces of a generated file that
//! `events.ts` shares.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ts_rs::Config;

use super::{Arg, Command, Ts};

const HEADER: &str = "// Generated from the `#[command]` functions of src-tauri/src/commands by \
`cargo test -p hearth --lib contract`: do not edit.\n";

/// A generated file: `header`, the lines in `preamble`, the imports of the types the body names
/// (name → file, relative to the bindings folder), then `body`.
pub fn file(header: &str, preamble: &str, imports: BTreeMap<String, String>, body: &str) -> String {
    let mut out = format!("{header}{preamble}");
    for (name, file) in imports {
        let _ = writeln!(out, "import type {{ {name} }} from \"./{file}\";");
    }
    out.push('\n');
    out + body
}

/// A member's doc comment in a table's body (none when `docs` is empty).
pub fn doc_line(body: &mut String, docs: &str) {
    if !docs.is_empty() {
        let _ = writeln!(body, "  /** {} */", docs.replace("*/", "*\\/"));
    }
}

/// The commands' table as TypeScript, with the imports of the types it names.
pub fn render(commands: &[Command], cfg: &Config) -> String {
    let mut imports = BTreeMap::new();
    let mut body = String::from(
        "/** Every command the app answers, by name: the arguments `invoke` takes (camelCase \
keys), what it resolves with and what it rejects with. */\nexport type Commands = {\n",
    );
    let mut named = |ty: &Ts| {
        imports.extend((ty.imports)(cfg));
        (ty.name)(cfg)
    };
    for command in commands {
        let args: Vec<String> = command
            .args
            .iter()
            .map(|Arg { key, ty, channel }| {
                let ty = named(ty);
                match channel {
                    true => format!("{key}: Channel<{ty}>"),
                    false => format!("{key}: {ty}"),
                }
            })
            .collect();
        let args = match args.is_empty() {
            true => "{}".to_string(),
            false => format!("{{ {} }}", args.join("; ")),
        };
        let result = named(&command.output.ok);
        let error = command
            .output
            .error
            .as_ref()
            .map_or("never".into(), &mut named);
        doc_line(&mut body, command.docs);
        let name = command.name;
        let _ = writeln!(
            body,
            "  {name}: {{ args: {args}; result: {result}; error: {error} }};"
        );
    }
    body.push_str("};\n");

    let channels = commands.iter().any(|c| c.args.iter().any(|a| a.channel));
    let preamble = match channels {
        true => "import type { Channel } from \"@tauri-apps/api/core\";\n",
        false => "",
    };
    file(HEADER, preamble, imports, &body)
}
