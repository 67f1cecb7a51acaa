//! Shared helpers for the workspace's end-to-end tests (see `tests/tests/`).
