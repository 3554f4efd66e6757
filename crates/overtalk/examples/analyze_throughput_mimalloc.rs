//! [`analyze_throughput`](analyze_throughput.rs) with mimalloc as the global allocator instead of
//! the system's (glibc) malloc: the same passes, to show how much of the figure is the
//! allocator. The library itself never sets a global allocator.
//!
//! `cargo run --release --example analyze_throughput_mimalloc -- [--repeat N] [--preset NAME] FILE…`

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "analyze_throughput.rs"]
mod run;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run::main()
}
