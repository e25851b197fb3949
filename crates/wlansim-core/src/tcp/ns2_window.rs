//! ns-2.35's window arithmetic on loss (`tcp/tcp.cc`, `tcp/tcp-reno.cc`,
//! `tcp/tcp-newreno.cc` with `tcl/lib/ns-default.tcl`'s defaults), used by the `ns2` TCP
//! profile ([`super::config::SenderRules::Ns2`]) where RFC 5681 / RFC 6582 differ:
//! - `TcpAgent::slowdown(CLOSE_SSTHRESH_HALF|…)`, at a fast retransmit and at *every*
//!   timeout: ssthresh = max(2, ⌊window()/2⌋) packets with window() = min(cwnd, wnd_)
//!   ([`halved_ssthresh`]); RFC 5681 eq. 4 halves the flight size, and only at the first
//!   timeout of a segment. At a fast retransmit `CLOSE_CWND_HALF` sets cwnd to half the
//!   window, unrounded ([`halved_window`]).
//! - `RenoTcpAgent::window()` is cwnd + dupwnd_: the inflation by duplicate ACKs
//!   (numdupacks_ at the fast retransmit, one per further duplicate) is kept apart from
//!   cwnd. A partial ACK of `deflate` packets takes `deflate − 1` from dupwnd_, or, when
//!   dupwnd_ is smaller, the rest from cwnd and leaves dupwnd_ = 1
//!   (`NewRenoTcpAgent::partialnewack`, `partial_window_deflation_ 1`: [`deflated_dupwnd`]).
//!   Leaving recovery drops dupwnd_ and keeps cwnd as it is (`exit_recovery_fix_ 0`), then
//!   opens it for that ACK as for any other; RFC 6582's full ACK sets
//!   cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
//! - `NewRenoTcpAgent::dupack_action` (`bugFix_ true`): a new fast retransmit needs
//!   `highest_ack_ > recover_`, the cumulative ACK past the highest packet sent when the
//!   last recovery or timeout began (the sender's `past_recover`).
//!
//! Windows here are in bytes, packets being `mss` bytes.

/// ssthresh after `slowdown(CLOSE_SSTHRESH_HALF)`: half the usable window in whole packets,
/// at least two.
pub fn halved_ssthresh(cwnd: u64, rwnd: u64, mss: u64) -> u64 {
    (cwnd.min(rwnd) / mss / 2).max(2) * mss
}

/// cwnd after `slowdown(CLOSE_CWND_HALF)`: half the usable window (`precisionReduce_`:
/// not rounded to packets; the sender sends whole segments only, as ns-2's `int(cwnd_)`).
pub fn halved_window(cwnd: u64, rwnd: u64) -> u64 {
    cwnd.min(rwnd) / 2
}

/// dupwnd_ after a partial ACK of `acked` bytes (at least one packet): `deflate − 1`
/// packets fewer while dupwnd_ is larger than the deflation, else one packet (the rest
/// of the deflation comes out of cwnd, which the caller's total accounts for).
pub fn deflated_dupwnd(dupwnd: u64, acked: u64, mss: u64) -> u64 {
    if dupwnd > acked {
        dupwnd - acked + mss
    } else {
        mss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowdown_halves_the_usable_window_in_packets() {
        assert_eq!(halved_ssthresh(19_000, 20_000, 1000), 9_000);
        assert_eq!(halved_ssthresh(35_500, 20_000, 1000), 10_000);
        assert_eq!(halved_ssthresh(1_000, 20_000, 1000), 2_000);
        assert_eq!(halved_window(19_000, 20_000), 9_500);
    }

    #[test]
    fn partial_ack_takes_from_dupwnd_first() {
        assert_eq!(deflated_dupwnd(6_000, 2_000, 1000), 5_000);
        assert_eq!(deflated_dupwnd(3_000, 5_000, 1000), 1_000);
    }
}
