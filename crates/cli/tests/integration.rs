//! hearth-cli's integration tests, one binary (each former suite is a module; run one with
//! `cargo test -p hearth-cli --test integration headless`): the `hearth-cli` commands end to end
//! (`cli`), the daemon, jobs and memory as real processes (`headless`), and `config.toml` rules.

mod cli;
mod headless;
mod rules;
