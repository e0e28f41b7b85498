//! Integration tests of the memory, history and planning tools through the registry, over a
//! real SQLite store in a temporary directory: every dialect's names and schemas, behaviour, and
//! malformed arguments.

#[path = "memory_history/dialects.rs"]
mod dialects;
#[path = "memory_history/history.rs"]
mod history;
#[path = "memory_history/memory.rs"]
mod memory;
#[path = "memory_history/planning/mod.rs"]
mod planning;
#[path = "memory_history/timeline.rs"]
mod timeline;

use crate::support::{failed, succeeded};
use hearth_protocol::{ContentPart, Message, Role};
use hearth_store::{ManualClock, NewMessage, NewSession, Store};
use hearth_tools::{
    register_history, register_memory, Dialect, ErrorKind, Registry, ToolContext, ToolError,
};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// A store in a temporary directory, its timestamps from a clock that moves only when the test
/// says ([`Fixture::tick`]), and registries over it.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
    pub clock: Arc<ManualClock>,
}

/// The store in `dir`, stamping its writes with `clock`.
fn open(dir: &tempfile::TempDir, clock: &Arc<ManualClock>) -> Arc<Store> {
    match Store::open(&dir.path().join("hearth.db")) {
        Ok(store) => Arc::new(store.with_clock(clock.clone())),
        Err(e) => panic!("open store: {e}"),
    }
}

impl Fixture {
    pub fn open() -> Fixture {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => panic!("tempdir: {e}"),
        };
        let clock = Arc::new(ManualClock::starting_now());
        let store = open(&dir, &clock);
        Fixture { dir, store, clock }
    }

    /// Closes the store and opens the same file again, as a restart does.
    pub fn reopen(self) -> Fixture {
        let Fixture { dir, store, clock } = self;
        drop(store);
        let store = open(&dir, &clock);
        Fixture { dir, store, clock }
    }

    /// Moves the store's clock on by a millisecond, so the next write's timestamp differs.
    pub fn tick(&self) {
        self.clock.advance(Duration::from_millis(1));
    }

    /// The memory and history tools of `dialect`.
    pub fn registry(&self, dialect: Dialect) -> Registry {
        let mut registry = Registry::new(dialect);
        let registered = register_memory(&mut registry, Arc::clone(&self.store))
            .and_then(|()| register_history(&mut registry, Arc::clone(&self.store)));
        if let Err(e) = registered {
            panic!("register: {e}");
        }
        registry
    }

    pub fn context(&self) -> ToolContext {
        ToolContext::new(
            self.dir.path().join("workspace"),
            self.dir.path().to_path_buf(),
            "desktop:test",
        )
    }

    pub async fn call(
        &self,
        dialect: Dialect,
        tool: &str,
        args: &Value,
    ) -> Result<Value, ToolError> {
        self.registry(dialect)
            .dispatch(tool, &args.to_string(), &self.context())
            .await
    }

    /// Calls a hearth tool and expects success.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        self.ok_in(Dialect::Hearth, tool, args).await
    }

    pub async fn ok_in(&self, dialect: Dialect, tool: &str, args: Value) -> Value {
        succeeded(self.call(dialect, tool, &args).await, tool, &args)
    }

    /// Calls a hearth tool and expects a failure.
    pub async fn err(&self, tool: &str, args: Value) -> ToolError {
        self.err_in(Dialect::Hearth, tool, args).await
    }

    pub async fn err_in(&self, dialect: Dialect, tool: &str, args: Value) -> ToolError {
        failed(self.call(dialect, tool, &args).await, tool, &args)
    }

    /// Creates a session.
    pub fn session(&self, id: &str, title: &str) {
        let new = NewSession {
            id: id.to_string(),
            title: title.to_string(),
            model: None,
            workspace: None,
            tool_profile: "full".to_string(),
        };
        if let Err(e) = self.store.create_session(&new) {
            panic!("create session: {e}");
        }
    }

    /// Stores a text message, a millisecond after the previous write (so sessions' activity
    /// times differ).
    pub fn say(&self, session: &str, role: Role, text: &str) -> Message {
        self.tick();
        let new = NewMessage::new(session, role, vec![ContentPart::text(text)]);
        match self.store.insert_message(&new) {
            Ok(message) => message,
            Err(e) => panic!("insert message: {e}"),
        }
    }
}

/// Asserts an `invalid_arguments` error naming `field`.
pub fn assert_invalid(error: &ToolError, field: &str) {
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{error:?}");
    assert_eq!(error.field.as_deref(), Some(field), "{error:?}");
}

/// The `key` of each object in `value[list]`.
pub fn column(value: &Value, list: &str, key: &str) -> Vec<Value> {
    value[list]
        .as_array()
        .map(|items| items.iter().map(|item| item[key].clone()).collect())
        .unwrap_or_default()
}
