//! Writes the contract: `commands.ts` (the `Commands` table) into the ts-rs bindings folder, and
//! the bindings of every type a command exchanges.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ts_rs::Config;

use super::{Arg, Command, Ts};

const HEADER: &str = "// Generated from the `#[command]` functions of src-tauri/src/commands by \
`cargo test -p hearth --lib contract`: do not edit.\n";

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
        if !command.docs.is_empty() {
            let _ = writeln!(body, "  /** {} */", command.docs.replace("*/", "*\\/"));
        }
        let name = command.name;
        let _ = writeln!(
            body,
            "  {name}: {{ args: {args}; result: {result}; error: {error} }};"
        );
    }
    body.push_str("};\n");

    let mut out = String::from(HEADER);
    if commands.iter().any(|c| c.args.iter().any(|a| a.channel)) {
        out.push_str("import type { Channel } from \"@tauri-apps/api/core\";\n");
    }
    for (name, file) in imports {
        let _ = writeln!(out, "import type {{ {name} }} from \"./{file}\";");
    }
    out.push('\n');
    out + &body
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Writes `commands.ts` and the bindings of the types the commands exchange (`cargo test -p
    /// hearth --lib contract`; `scripts/test.sh` fails when the committed files differ).
    #[test]
    fn contract_exports_every_command() {
        let cfg = Config::from_env();
        let commands = crate::commands::every_command();
        for command in &commands {
            let types = command.args.iter().map(|a| &a.ty);
            let types = types
                .chain([&command.output.ok])
                .chain(&command.output.error);
            for ty in types {
                (ty.export)(&cfg).unwrap();
            }
        }
        let path = cfg.out_dir().join("commands.ts");
        std::fs::write(&path, render(&commands, &cfg)).unwrap();
    }
}
