//! The browser tool on a real Chromium (Debian's) against pages served on 127.0.0.1.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod browser {
    pub mod pages;
    pub mod rig;

    mod actions;
    mod blocked;
    mod downloads;
    mod egress;
    mod lifecycle;
}
