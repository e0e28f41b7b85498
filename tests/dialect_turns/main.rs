//! Agent turns against the scripted model server through each dialect's tool names, with the
//! engine's real registry: commands and network tools, memory and jobs, planning and questions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod exec_net;
mod memory_jobs;
mod planning;
mod rig;
