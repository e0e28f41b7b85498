//! Raw CDP commands through chromiumoxide's connection: any method with JSON parameters and a
//! JSON result, so newer Chrome fields never break a typed decode.

use chromiumoxide::Page;
use chromiumoxide_types::{Command, Method, MethodId};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// One CDP command: its method (`DOM.getContentQuads`) and parameters.
#[derive(Debug)]
pub struct Raw {
    method: &'static str,
    params: Value,
}

impl Serialize for Raw {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(serializer)
    }
}

impl Method for Raw {
    fn identifier(&self) -> MethodId {
        self.method.into()
    }
}

impl Command for Raw {
    type Response = Value;
}

/// A failed CDP command: the method and Chrome's message.
#[derive(Debug, thiserror::Error)]
#[error("{method}: {message}")]
pub struct CdpFailure {
    pub method: &'static str,
    pub message: String,
}

/// Sends `method` with `params` to `page`'s session and returns the result object.
pub async fn call(page: &Page, method: &'static str, params: Value) -> Result<Value, CdpFailure> {
    page.execute(Raw { method, params })
        .await
        .map(|response| response.result)
        .map_err(|e| CdpFailure {
            method,
            message: e.to_string(),
        })
}
