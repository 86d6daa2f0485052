//! Whole-system runs: a fault-free fabric must complete every op OK, and the statistics must
//! account for every op.

use onerma_model::workload::{ClientSpec, RateSpec, Runner, Scenario};

fn mixed(nics: usize) -> Scenario {
    Scenario {
        nics,
        clients: vec![ClientSpec {
            slots: 8,
            read: 2,
            write: 2,
            rekey: 0,
            sizes: vec![1, 64, 1000, 1024, 3000, 4096],
            rate: RateSpec::ClosedLoop { think: 0 },
            ..ClientSpec::default()
        }],
        duration: 50_000,
        record: true,
        ..Scenario::default()
    }
}

#[test]
fn fault_free_mixed_run_completes_every_op_ok() {
    let mut r = Runner::new(&mixed(3)).expect("scenario");
    let st = r.run().clone();
    eprintln!("{st:#?}");
    assert!(st.ops_completed > 100, "too few ops: {}", st.ops_completed);
    assert_eq!(st.ops_submitted, st.ops_completed);
    assert_eq!(
        st.by_status.get("OK").copied().unwrap_or(0),
        st.ops_completed,
        "{:?}",
        st.by_status
    );
    assert_eq!(
        st.nic.drop_auth + st.nic.drop_malformed + st.nic.drop_stale,
        0
    );
}
