//! Capability tags: what kind of effect a tool has, as matched by policy rules (the tags each
//! tool carries are listed in `docs/tools.md`). The tags are an enumerated setting (rules in
//! `config.toml` name them), so they are declared in `hearth-protocol`.

pub use hearth_protocol::{Capability, ChoiceError as ParseError};
