//! The media tools through the engine's real registry (`EngineBuilder::registry`): vision
//! against the scripted model server in all four wire formats, image generation and speech
//! against stand-ins speaking the OpenAI Images and `/audio/speech` APIs, speech through the
//! real `espeak-ng`; each with malformed arguments, oversized inputs, paths outside the
//! workspace, private URLs and missing configuration.

mod image;
mod rig;
mod speech;
mod vision;
