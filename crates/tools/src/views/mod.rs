//! Tool views: what a tool card shows of a call, built here once from the canonical tool, the
//! call's arguments and its result, so no window reads a tool's JSON or knows a dialect's names.

mod canonical;
mod command;
mod diff;
mod failure;
mod page;
mod proposed;
mod read;
mod results;
mod search;

pub use canonical::canonical_name;
pub use page::attach_views;
pub use proposed::proposed_view;
pub use results::{call_views, result_views};

#[cfg(test)]
mod tests;
