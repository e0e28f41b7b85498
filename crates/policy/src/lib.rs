//! Pure policy decisions.
