mod common;
use common::*;

#[test]
fn smoke() {
    for n in [1, 2, 5, 10, 20, 50] {
        let s = saturated_cell(n, "short_retry_limit = \"unlimited\"", "20 s");
        let r = run(&s, 1);
        let att: u64 = r.nodes.iter().map(|x| x.mac.attempts).sum();
        let col: u64 = r.nodes.iter().map(|x| x.mac.collisions).sum();
        println!(
            "n={n} thr={:.3} Mb/s p={:.4} events={} wall={:.3}",
            total_throughput(&r) / 1e6,
            col as f64 / att as f64,
            r.meta.events,
            r.meta.wall_s
        );
    }
}
