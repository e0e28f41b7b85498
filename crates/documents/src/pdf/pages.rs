//! The text of a document's pages, read on several threads at once and put back in order.

use super::spans;
use crate::render::Unit;
use crate::text::tidy;
use crate::worker::STACK_BYTES;
use crate::DocumentError;
use pdf_oxide::document::PdfDocument;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::Builder;

/// The most threads a document's pages are read on. Their stacks (each as large as the parse
/// thread's) come out of the worker's memory budget: where it cannot hold one, its pages are
/// read on the threads there are.
const MOST_THREADS: usize = 4;

/// The fewest pages worth a thread of their own.
const THREAD_PAGES: usize = 8;

/// A page's place among those asked for, and its text.
type Read = (usize, Result<Unit, DocumentError>);

/// The text of each page in `numbers` (1-based), in order.
pub(super) fn texts(doc: &PdfDocument, numbers: &[usize]) -> Result<Vec<Unit>, DocumentError> {
    let page = |number: usize| -> Result<Unit, DocumentError> {
        let text = spans::text(doc, number - 1)?;
        Ok(Unit::numbered(number, tidy(&text)))
    };
    let mut units = Vec::with_capacity(numbers.len());
    let next = AtomicUsize::new(0);
    // Each thread takes the next page not yet taken until none is left.
    let work = || -> Vec<Read> {
        let mut read = Vec::new();
        loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(&number) = numbers.get(at) else {
                return read;
            };
            read.push((at, page(number)));
        }
    };
    let mut read = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads(numbers.len()))
            .filter_map(|_| {
                Builder::new()
                    .name("pdf-pages".into())
                    .stack_size(usize::try_from(STACK_BYTES).unwrap_or(usize::MAX))
                    .spawn_scoped(scope, work)
                    .inspect_err(|error| tracing::debug!(%error, "no thread for PDF pages"))
                    .ok()
            })
            .collect();
        let mut read = work();
        for helper in helpers {
            read.extend(
                helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        read
    });
    read.sort_unstable_by_key(|(at, _)| *at);
    for (_, unit) in read {
        units.push(unit?);
    }
    Ok(units)
}

/// How many threads read `pages` pages: one per core, within [`MOST_THREADS`].
fn threads(pages: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(MOST_THREADS).min(pages / THREAD_PAGES).max(1)
}
