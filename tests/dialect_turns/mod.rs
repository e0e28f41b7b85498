//! Agent turns against the scripted model server through each dialect's tool names, with the
//! engine's real registry: commands and network tools, the browser, memory and jobs, planning and
//! questions, the media tools, and channels.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod browser;
mod channels;
mod exec_net;
mod media;
mod memory_jobs;
mod planning;
mod rig;
