//! End-to-end tests of every provider against a scripted HTTP server on 127.0.0.1.

// A test binary: failing fast on broken fixtures is the point.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod payloads;
mod scenarios;
mod server;
mod transport;

macro_rules! provider_tests {
    ($provider:ident) => {
        mod $provider {
            use crate::{payloads, scenarios};

            #[tokio::test]
            async fn streams_text_and_tool_calls() {
                scenarios::streams_text_and_tool_calls(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn retries_429_after_retry_after() {
                scenarios::retries_429_after_retry_after(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn retries_500_three_times() {
                scenarios::retries_500_three_times(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn gives_up_after_the_retry_budget() {
                scenarios::gives_up_after_the_retry_budget(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn mid_stream_disconnect_is_an_error() {
                scenarios::mid_stream_disconnect_is_an_error(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn malformed_chunk_is_a_protocol_error() {
                scenarios::malformed_chunk_is_a_protocol_error(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn unauthorized_is_not_retried() {
                scenarios::unauthorized_is_not_retried(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn bad_request_and_context_length_are_not_retried() {
                scenarios::bad_request_and_context_length_are_not_retried(payloads::$provider())
                    .await;
            }

            #[tokio::test]
            async fn dropping_the_stream_closes_the_connection() {
                scenarios::dropping_the_stream_closes_the_connection(payloads::$provider()).await;
            }

            #[tokio::test]
            async fn lists_models() {
                scenarios::lists_models(payloads::$provider()).await;
            }
        }
    };
}

provider_tests!(openai);
provider_tests!(anthropic);
provider_tests!(ollama);
provider_tests!(gemini);
