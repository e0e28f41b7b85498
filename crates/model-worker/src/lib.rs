//! The model worker (`hearth-model-worker`, started with [`WORKER_ARG`]): loads one model with
//! llama.cpp and serves the `local` provider's requests on stdin until stdin closes, so an abort
//! inside llama.cpp (a damaged file, no memory) costs the worker, never the app.

mod facts;
mod grammar;
mod io;
mod session;

use hearth_local::wire::{Failure, Reply, Request};
use hearth_local::WORKER_ARG;
use io::{Incoming, Output};

/// Serves as the model worker and exits when this process was started as one (its first
/// argument is [`WORKER_ARG`]); returns at once otherwise.
/// `hearth-model-worker` calls it first thing in `main`.
pub fn serve_worker_if_asked() {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == WORKER_ARG)
    {
        std::process::exit(serve());
    }
}

fn serve() -> i32 {
    let mut out = Output::stdout();
    let incoming = Incoming::from_stdin();
    let Some(first) = incoming.next() else {
        return 0;
    };
    match first {
        Ok(Request::Inspect { path }) => {
            let reply = match facts::inspect(&path) {
                Ok(facts) => Reply::Inspected(facts),
                Err(reason) => Reply::Failed(Failure::Unusable(reason)),
            };
            i32::from(out.send(&reply).is_err())
        }
        Ok(Request::Load(load)) => session::serve(&load, &incoming, &mut out),
        Ok(other) => {
            let reason = format!("the first request must load a model, not {other:?}");
            let _ = out.send(&Reply::Failed(Failure::Other(reason)));
            2
        }
        Err(reason) => {
            let _ = out.send(&Reply::Failed(Failure::Other(reason)));
            2
        }
    }
}
