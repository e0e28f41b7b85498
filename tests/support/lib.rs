//! Support shared by the workspace integration suites: the scripted model server (and a provider
//! client of it) and reference decoders for its streams.

pub mod bot_api;
pub mod decode;
pub mod model_server;
pub mod notification_server;
pub mod processes;
pub mod webhook_receiver;

pub use model_server::{RecordedRequest, Reply, ScriptedServer, ServerOptions};
