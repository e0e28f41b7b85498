//! hearth-tools' integration tests, one binary (each former suite is a module; run one with
//! `cargo test -p hearth-tools --test integration exec_tools`): the execution, file, memory and
//! history, network and scheduling tools, the registry itself (`tools`), and that no tool runs
//! store work on the runtime's thread (`off_worker`). This binary serves as the document worker
//! (`fs_tools::document` holds the one `worker_test_host!` it may have).

mod exec_tools;
mod fs_tools;
mod memory_history;
mod net_tools;
mod off_worker;
mod scheduling;
mod support;
mod tools;
