//! The request journal: every request the server received, kept in memory and optionally
//! appended to a file as JSON lines.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;

use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// The query string without `?`, when there is one.
    pub query: Option<String>,
    /// Lowercased header names; repeated headers joined with `, `.
    pub headers: BTreeMap<String, String>,
    /// The body parsed as JSON; `Null` when empty, a JSON string when it is not JSON.
    pub body: Value,
}

impl RecordedRequest {
    pub(super) fn new(
        method: &str,
        path: &str,
        query: Option<&str>,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Self {
        let mut map: BTreeMap<String, String> = BTreeMap::new();
        for (name, value) in headers {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            map.entry(name.as_str().to_string())
                .and_modify(|v| {
                    v.push_str(", ");
                    v.push_str(&value);
                })
                .or_insert(value);
        }
        let body = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
        };
        RecordedRequest {
            method: method.to_string(),
            path: path.to_string(),
            query: query.map(str::to_string),
            headers: map,
            body,
        }
    }

    /// A header's value by (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// Whether this asked a model for a response (a POST to one of the four chat endpoints),
    /// as opposed to listing models or hitting an unknown route.
    /// A model call asking for a chat's title (see [`super::TITLE_REQUEST_MARK`]).
    pub fn is_title_request(&self) -> bool {
        self.is_model_call() && self.body.to_string().contains(super::TITLE_REQUEST_MARK)
    }

    pub fn is_model_call(&self) -> bool {
        let chat =
            ["/v1/chat/completions", "/v1/messages", "/api/chat"].contains(&self.path.as_str());
        self.method == "POST" && (chat || self.path.starts_with("/v1beta/models/"))
    }
}

/// In-memory journal plus the optional JSON-lines file.
#[derive(Debug)]
pub(super) struct Journal {
    entries: Mutex<Vec<RecordedRequest>>,
    file: Option<Mutex<File>>,
}

impl Journal {
    /// Creates (truncating) the journal file when a path is given.
    pub(super) fn open(path: Option<&Path>) -> io::Result<Journal> {
        let file = path.map(File::create).transpose()?.map(Mutex::new);
        Ok(Journal {
            entries: Mutex::new(Vec::new()),
            file,
        })
    }

    pub(super) fn record(&self, request: RecordedRequest) -> io::Result<()> {
        if let Some(file) = &self.file {
            let mut line = serde_json::to_vec(&request)?;
            line.push(b'\n');
            let mut file = file.lock().unwrap();
            file.write_all(&line)?;
            file.flush()?;
        }
        self.entries.lock().unwrap().push(request);
        Ok(())
    }

    pub(super) fn entries(&self) -> Vec<RecordedRequest> {
        self.entries.lock().unwrap().clone()
    }
}
