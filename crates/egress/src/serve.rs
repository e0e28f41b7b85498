//! Serving proxy connections with hyper: CONNECT tunnels and absolute-form `http://` requests
//! (WebSocket upgrades carried through), each target checked by the guard before one byte is
//! sent, and connected only to the addresses the guard checked.

use crate::log::{RefusalLog, Refused};
use bytes::Bytes;
use hearth_net::{Guard, GuardError};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

/// The header of the proxy's own `403` answer to a refused `http://` request: the refusal's
/// number in the log, so a browser that shows that answer as the page can tell it from a site's
/// own 403 (a refused `CONNECT` never reaches the page: the browser fails the request).
pub const REFUSAL_HEADER: &str = "x-hearth-egress-refusal";

/// How long connecting to one checked address may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

type Body = BoxBody<Bytes, hyper::Error>;

pub(crate) struct State {
    pub(crate) guard: Guard,
    pub(crate) refusals: Arc<RefusalLog>,
    /// Cancelled when the proxy is dropped: stops accepting and ends every connection.
    pub(crate) stop: CancellationToken,
}

/// Accepts connections until the proxy stops.
pub(crate) async fn accept(listener: TcpListener, state: Arc<State>) {
    loop {
        let accepted = tokio::select! {
            () = state.stop.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                tracing::warn!(%error, "egress proxy: accept failed");
                continue;
            }
        };
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let for_service = Arc::clone(&state);
            let service = service_fn(move |req| handle(Arc::clone(&for_service), req));
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::select! {
                () = state.stop.cancelled() => {}
                served = connection => if let Err(error) = served {
                    tracing::debug!(%error, "egress proxy: connection ended");
                }
            }
        });
    }
}

async fn handle(state: Arc<State>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    Ok(if req.method() == Method::CONNECT {
        tunnel(&state, req).await
    } else {
        forward(&state, req).await
    })
}

/// CONNECT `host:port`: checked, connected, answered 200, then bytes copied both ways.
async fn tunnel(state: &State, req: Request<Incoming>) -> Response<Body> {
    let Some((host, port)) = req
        .uri()
        .authority()
        .and_then(|a| Some((a.host().to_string(), a.port_u16()?)))
    else {
        return text(StatusCode::BAD_REQUEST, "CONNECT needs host:port".into());
    };
    let upstream = match open(state, &host, port).await {
        Ok(upstream) => upstream,
        Err(refused) => return refused,
    };
    let stop = state.stop.clone();
    tokio::spawn(async move {
        match hyper::upgrade::on(req).await {
            Ok(upgraded) => splice(TokioIo::new(upgraded), upstream, stop).await,
            Err(error) => tracing::debug!(%error, "egress proxy: CONNECT not upgraded"),
        }
    });
    Response::new(empty())
}

/// An absolute-form `http://` request: checked, connected, sent in origin form; a `101
/// Switching Protocols` answer (WebSocket) splices the two connections.
async fn forward(state: &State, mut req: Request<Incoming>) -> Response<Body> {
    let uri = req.uri().clone();
    let (Some("http"), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return text(
            StatusCode::BAD_REQUEST,
            "this proxy takes CONNECT and absolute http:// requests only".into(),
        );
    };
    let (host, port) = (
        authority.host().to_string(),
        authority.port_u16().unwrap_or(80),
    );
    let upstream = match open(state, &host, port).await {
        Ok(upstream) => upstream,
        Err(refused) => return refused,
    };
    let (mut sender, connection) =
        match hyper::client::conn::http1::handshake(TokioIo::new(upstream)).await {
            Ok(pair) => pair,
            Err(error) => return text(StatusCode::BAD_GATEWAY, format!("{host}: {error}")),
        };
    let stop = state.stop.clone();
    tokio::spawn(async move {
        tokio::select! {
            () = stop.cancelled() => {}
            done = connection.with_upgrades() => if let Err(error) = done {
                tracing::debug!(%error, "egress proxy: upstream connection ended");
            }
        }
    });
    let client_upgrade = hyper::upgrade::on(&mut req);
    *req.uri_mut() = origin_form(&uri);
    for hop in ["proxy-connection", "proxy-authorization"] {
        req.headers_mut().remove(hop);
    }
    let mut response = match sender.send_request(req).await {
        Ok(response) => response,
        Err(error) => return text(StatusCode::BAD_GATEWAY, format!("{host}: {error}")),
    };
    if response.status() == StatusCode::SWITCHING_PROTOCOLS {
        let upstream_upgrade = hyper::upgrade::on(&mut response);
        let stop = state.stop.clone();
        tokio::spawn(async move {
            match (client_upgrade.await, upstream_upgrade.await) {
                (Ok(client), Ok(upstream)) => {
                    splice(TokioIo::new(client), TokioIo::new(upstream), stop).await;
                }
                _ => tracing::debug!("egress proxy: an upgrade did not complete"),
            }
        });
    }
    response.map(BodyExt::boxed)
}

/// Checks `host:port` with the guard and connects to one of the addresses it checked; a
/// refusal is recorded and answered 403 with the guard's reason.
async fn open(state: &State, host: &str, port: u16) -> Result<TcpStream, Response<Body>> {
    let checked = match state.guard.check(&format!("http://{host}:{port}/")).await {
        Ok(checked) => checked,
        Err(GuardError::Blocked(refusal)) => {
            tracing::info!(host, port, reason = %refusal.message, "egress proxy refused");
            let mut response = text(StatusCode::FORBIDDEN, refusal.message.clone());
            let number = state.refusals.push(Refused {
                host: host
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string(),
                port,
                address: refusal.address,
                reason: refusal.message,
            });
            response
                .headers_mut()
                .insert(REFUSAL_HEADER, hyper::header::HeaderValue::from(number));
            return Err(response);
        }
        Err(other) => return Err(text(StatusCode::BAD_GATEWAY, other.to_string())),
    };
    let mut last = None;
    for ip in checked.addresses {
        let address = SocketAddr::new(ip, port);
        match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(address)).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(error)) => last = Some(format!("{address}: {error}")),
            Err(_) => last = Some(format!("{address}: no answer in {CONNECT_TIMEOUT:?}")),
        }
    }
    Err(text(
        StatusCode::BAD_GATEWAY,
        format!(
            "cannot connect to {host}:{port}: {}",
            last.unwrap_or_default()
        ),
    ))
}

/// Copies bytes both ways until either side closes or the proxy stops.
async fn splice(
    mut a: impl AsyncRead + AsyncWrite + Unpin,
    mut b: impl AsyncRead + AsyncWrite + Unpin,
    stop: CancellationToken,
) {
    tokio::select! {
        () = stop.cancelled() => {}
        copied = tokio::io::copy_bidirectional(&mut a, &mut b) => if let Err(error) = copied {
            tracing::debug!(%error, "egress proxy: tunnel ended");
        }
    }
}

fn origin_form(uri: &Uri) -> Uri {
    uri.path_and_query()
        .map_or_else(|| Uri::from_static("/"), |pq| Uri::from(pq.clone()))
}

fn empty() -> Body {
    Empty::<Bytes>::new()
        .map_err(|never| match never {})
        .boxed()
}

fn text(status: StatusCode, message: String) -> Response<Body> {
    let mut response = Response::new(
        Full::new(Bytes::from(message))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    response
}
