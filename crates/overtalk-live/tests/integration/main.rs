//! Integration tests of the live crate, one module per area (actuators against local
//! receivers, replayed sessions, the floor rules on AMI meetings, the live page): one test
//! binary, linked once.

// A failed unwrap in a test is a failed test with its location, which is what we want.
#![allow(clippy::unwrap_used)]

mod actuators;
mod common;
mod replay;
mod rules_ami;
mod serve;
