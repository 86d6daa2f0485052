//! Prints the model throughput benchmarks: `cargo run --release -p onerma-model --example bench [ops]`.

fn main() {
    let ops = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000u64);
    for nics in [2usize, 40] {
        let r = onerma_model::bench_ops_per_s(nics, ops);
        println!("model_ops_per_s_{nics}nic: {r:.0} simulated ops/s ({ops} ops)");
    }
}
