//! hearth-skills' integration tests, one binary (each former suite is a module; run one with
//! `cargo test -p hearth-skills --test integration install`): installs and hostile archives, the
//! library and the prompt catalogue.

mod install;
mod library;
