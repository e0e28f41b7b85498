//! hearth-tools' integration tests, one binary (each former suite is a module; run one with
//! `cargo test -p hearth-tools --test integration exec_tools`): the execution, file, memory and
//! history, network and scheduling tools, and the registry itself (`tools`). This binary serves
//! as the document worker (`fs_tools::document` holds the one `worker_test_host!` it may have).

mod exec_tools;
mod fs_tools;
mod memory_history;
mod net_tools;
mod scheduling;
mod support;
mod tools;
