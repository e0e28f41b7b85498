//! Multi-round-trip requests (2026-07-28): a `tools/call` the server answers `input_required`
//! has its input requests answered by Hearth's [`Handler`] (elicitation and roots; sampling is
//! refused, Hearth offers none) and is sent again — with a new JSON-RPC id — carrying the
//! answers and the server's `requestState` exactly as received (none when it sent none).

use rmcp::model::{InputRequest, InputRequiredResult, InputResponses, NumberOrString};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ClientHandler, RoleClient};

use crate::connect::Handler;

/// Most `input_required` rounds one call may take.
pub(crate) const MAX_ROUNDS: usize = 8;

/// What a retry carries: the answers to the input requests and the echoed state.
pub(crate) struct Retry {
    pub input_responses: Option<InputResponses>,
    pub request_state: Option<String>,
}

/// Answers `result`'s input requests; the reason when one cannot be answered.
pub(crate) async fn answer(
    handler: &Handler,
    peer: &Peer<RoleClient>,
    result: InputRequiredResult,
) -> Result<Retry, String> {
    let requests = result.input_requests.unwrap_or_default();
    if requests.is_empty() && result.request_state.is_none() {
        return Err("the server asked for input without saying what".to_string());
    }
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let context =
            RequestContext::new(NumberOrString::String(key.as_str().into()), peer.clone());
        let value = match request {
            InputRequest::Elicitation(request) => {
                let answer = handler
                    .create_elicitation(request.params, context)
                    .await
                    .map_err(|e| e.message.to_string())?;
                serde_json::to_value(answer)
            }
            InputRequest::ListRoots(_) => {
                let roots = handler
                    .list_roots(context)
                    .await
                    .map_err(|e| e.message.to_string())?;
                serde_json::to_value(roots)
            }
            // Sampling (running a model for the server), or a kind of input newer than Hearth.
            _ => {
                return Err(
                    "the server asks Hearth to run a model for it (sampling), which Hearth does not offer"
                        .to_string(),
                )
            }
        }
        .map_err(|e| e.to_string())?;
        responses.insert(key, value);
    }
    Ok(Retry {
        input_responses: (!responses.is_empty()).then_some(responses),
        request_state: result.request_state,
    })
}
