//! The MSDU lifetime (`mac.msdu_lifetime`, `edca.<ac>.msdu_lifetime`): an MSDU the MAC
//! accepted longer ago than its lifetime is discarded rather than sent (802.11-2012
//! 9.19.2.6: dot11EDCATableMSDULifetime[AC] of a QoS STA; the DCF's transmit MSDU timer,
//! dot11MaxTransmitMSDULifetime). Its time counts from when the packet entered the
//! entity's queue (`net/queue.rs` keeps it), across its retries.
//!
//! Where wlansim checks it (`mac/store/lifetime.rs`): when an entity accesses the medium
//! (or sends its next frame in a TXOP), before its frame is chosen:
//! - without aggregation, the expired frames at the head of the queue are discarded, oldest
//!   first, and the first one that is not goes; the retry counts start again with it;
//! - with aggregation, for the receiver of the exchange: its MPDUs sent and not
//!   acknowledged whose lifetime passed leave the window (under a Block Ack agreement the
//!   next exchange is then a BlockAckReq, 802.11-2020 10.25.6, whose receipt moves the
//!   recipient's window past them and releases what it held behind them, in order), and
//!   its expired queued packets are not aggregated.
//!
//! One departure: an entity that won the medium always sends something (the shared
//! medium's grant is not undone), so the last frame it has for the exchange's receiver
//! goes even when its lifetime passed during the backoff. ns-3.37 drops it and releases
//! the channel.
use crate::sim::time::Time;

/// Whether an MSDU queued at `queued` has outlived `lifetime` (None: unlimited) at `now`
/// (as ns-3.37's `WifiMacQueue`: expired from enqueue time + lifetime on).
#[inline]
pub fn expired(queued: Time, lifetime: Option<Time>, now: Time) -> bool {
    lifetime.is_some_and(|l| now.saturating_sub(queued) >= l)
}
