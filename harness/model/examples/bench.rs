//! Prints the model throughput benchmarks:
//! `cargo run --release -p onerma-model --example bench [ops] [nics,...]` (default 1000000, 2,40).

fn main() {
    let mut args = std::env::args().skip(1);
    let ops = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000u64);
    let nics: Vec<usize> = args
        .next()
        .map(|a| a.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![2, 40]);
    for n in nics {
        let r = onerma_model::bench_ops_per_s(n, ops);
        println!("model_ops_per_s_{n}nic: {r:.0} simulated ops/s ({ops} ops)");
    }
}
