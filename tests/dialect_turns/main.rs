//! Agent turns against the scripted model server through each dialect's tool names, with the
//! engine's real registry: commands and network tools, memory and jobs, channels.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod channels;
mod exec_net;
mod memory_jobs;
mod rig;
