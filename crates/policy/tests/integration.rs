//! hearth-policy's integration tests, one binary (each former suite is a module; run one with
//! `cargo test -p hearth-policy --test integration golden`): the always-asked calls, the `decide`
//! tables, the golden decision table (an insta snapshot), tool profiles and skill declarations.

mod always_ask;
mod decide;
mod golden;
mod profiles;
mod skill;
