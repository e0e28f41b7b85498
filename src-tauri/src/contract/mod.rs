//! The IPC contract: every command's signature as `#[command]` recorded it (see
//! `hearth-ipc-macros`) and every event of `crate::events`, written out as
//! `ui/src/lib/bindings/commands.ts` and `events.ts` (rendered by [`export`] and [`events`]) by
//! the test below, together with the ts-rs bindings of the types they name. Test builds only.

mod events;
mod export;

pub use events::Event;

use std::collections::BTreeMap;

use ts_rs::{Config, ExportError, TypeVisitor, TS};

/// One command: its name, its doc comment, the arguments the UI passes and what it returns.
pub struct Command {
    pub name: &'static str,
    pub docs: &'static str,
    pub args: Vec<Arg>,
    pub output: Output,
}

/// An argument the UI passes: its key in `invoke`'s object and its type.
pub struct Arg {
    key: &'static str,
    ty: Ts,
    /// A `Channel<T>` the command sends `ty` over.
    channel: bool,
}

impl Arg {
    pub fn value<T: TS + 'static + ?Sized>(key: &'static str) -> Self {
        let ty = Ts::of::<T>();
        Self {
            key,
            ty,
            channel: false,
        }
    }

    pub fn channel<T: TS + 'static>(key: &'static str) -> Self {
        let ty = Ts::of::<T>();
        Self {
            key,
            ty,
            channel: true,
        }
    }
}

/// What a command resolves with and, for one returning a `Result`, what it rejects with.
pub struct Output {
    ok: Ts,
    error: Option<Ts>,
}

impl Output {
    pub fn value<T: TS + 'static + ?Sized>() -> Self {
        Self {
            ok: Ts::of::<T>(),
            error: None,
        }
    }

    pub fn fallible<R: Fallible>() -> Self {
        Self {
            ok: Ts::of::<R::Ok>(),
            error: Some(Ts::of::<R::Err>()),
        }
    }
}

/// A command's `Result` return type, split.
pub trait Fallible {
    type Ok: TS + 'static;
    type Err: TS + 'static;
}

impl<T: TS + 'static, E: TS + 'static> Fallible for Result<T, E> {
    type Ok = T;
    type Err = E;
}

/// A Rust type's TypeScript side: its name, the exported types it names (name → file, relative
/// to the bindings folder) and the export of those files.
struct Ts {
    name: fn(&Config) -> String,
    imports: fn(&Config) -> BTreeMap<String, String>,
    export: fn(&Config) -> Result<(), ExportError>,
}

impl Ts {
    /// A command's argument or result: `()` is `void`.
    fn of<T: TS + 'static + ?Sized>() -> Self {
        // `()` crosses IPC as `null`; TypeScript callers know a result they ignore as `void`.
        let unit = std::any::TypeId::of::<T>() == std::any::TypeId::of::<()>();
        Self {
            name: if unit { |_| "void".into() } else { T::name },
            ..Self::exact::<T>()
        }
    }

    /// As ts-rs names it (`()` is `null`): an event's payload, which a listener receives.
    fn exact<T: TS + 'static + ?Sized>() -> Self {
        Self {
            name: T::name,
            imports: imports::<T>,
            export: export::<T>,
        }
    }
}

/// Calls `visitor` for `T` and the types its TypeScript name names (`Array<Session>`: `Session`).
fn visit_named<T: TS + 'static + ?Sized>(visitor: &mut impl TypeVisitor) {
    visitor.visit::<T>();
    T::visit_generics(visitor);
}

fn imports<T: TS + 'static + ?Sized>(cfg: &Config) -> BTreeMap<String, String> {
    struct Imports<'a>(&'a Config, BTreeMap<String, String>);
    impl TypeVisitor for Imports<'_> {
        fn visit<U: TS + 'static + ?Sized>(&mut self) {
            if let Some(path) = U::output_path() {
                let file = path.with_extension("").to_string_lossy().into_owned();
                self.1.insert(U::ident(self.0), file);
            }
        }
    }
    let mut found = Imports(cfg, BTreeMap::new());
    visit_named::<T>(&mut found);
    found.1
}

fn export<T: TS + 'static + ?Sized>(cfg: &Config) -> Result<(), ExportError> {
    struct Export<'a>(&'a Config, Result<(), ExportError>);
    impl TypeVisitor for Export<'_> {
        fn visit<U: TS + 'static + ?Sized>(&mut self) {
            if self.1.is_ok() && U::output_path().is_some() {
                self.1 = U::export_all(self.0);
            }
        }
    }
    let mut done = Export(cfg, Ok(()));
    visit_named::<T>(&mut done);
    done.1
}

/// The app's source files (`src-tauri/src`) with their text, for the tests that read them.
#[allow(clippy::unwrap_used)]
pub fn sources() -> Vec<(std::path::PathBuf, String)> {
    let mut files = Vec::new();
    let mut folders = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((path, text));
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Writes the bindings of `types` and then `text` as `name` beside them.
    fn write<'a>(cfg: &Config, types: impl IntoIterator<Item = &'a Ts>, name: &str, text: &str) {
        for ty in types {
            (ty.export)(cfg).unwrap();
        }
        std::fs::write(cfg.out_dir().join(name), text).unwrap();
    }

    /// Writes `commands.ts`, `events.ts` and the bindings of the types the commands and events
    /// exchange (`cargo test -p hearth --lib contract`; `scripts/test.sh` fails when the
    /// committed files differ).
    #[test]
    fn contract_exports_every_command_and_event() {
        let cfg = Config::from_env();
        let commands = crate::commands::every_command();
        let types = commands.iter().flat_map(|command| {
            let args = command.args.iter().map(|a| &a.ty);
            args.chain([&command.output.ok])
                .chain(&command.output.error)
        });
        write(&cfg, types, "commands.ts", &export::render(&commands, &cfg));

        let events = crate::events::every_event();
        let types = events.iter().map(|event| &event.payload);
        write(&cfg, types, "events.ts", &events::render(&events, &cfg));
    }
}
