//! Block Ack agreements (802.11-2020 11.5.2). A session's agreement is set up by ADDBA (as
//! ns-3.37 does by default: `HtFrameExchangeManager::NeedSetupBlockAck`,
//! `SendAddBaRequest`, `QosTxop::AddBaResponseTimeout`, `ResetBa`). The access that
//! would send the first A-MPDU to a receiver, when more than one MPDU waits for it
//! (on a VHT PHY: any), sends an ADDBA Request instead (an action frame of
//! [`ADDBA_FRAME`] bytes at the BSS's lowest basic rate, acknowledged by an ACK at the
//! same rate); from then on the session's MPDUs wait. The recipient, once it decoded
//! the Request, sends an ADDBA Response (same size and rate, acknowledged) in a channel
//! access of its own, before its other frames; the originator's agreement exists from
//! the Response's reception. A Request or Response without its ACK is retried up to
//! the short retry limit, CW doubling; a discarded Request, or no Response within
//! [`ADDBA_RESPONSE_TIMEOUT`] of the Request's ACK, lets the MPDUs go alone, each
//! acknowledged by an ACK, until a Response arrives or, [`FAILED_ADDBA_TIMEOUT`]
//! later, a new Request goes (ns-3's `AddBaResponseTimeout` and `FailedAddBaTimeout`).
//! Without an agreement an MPDU goes alone with an ACK (a window of 1). The action
//! frames are lost as control frames are (only when the channel asks about every
//! frame). Counted per node in `addba_sent` (Requests and Responses, each attempt).
//!
//! Not modelled: the agreement, once set up, lasts the run: no inactivity timeout, no
//! DELBA (ns-3's default inactivity timeout is 0, none); the recipient's side of the
//! agreement exists with the originator's.
//!
//! Which ADDBA frame, if any, an entity's next exchange sends is decided here alone
//! ([`pending`], [`needs_setup`]; `Aggregation::pending_addba` and `Aggregation::addba`
//! in `mac/aggregate.rs` apply them to an entity's sessions); `mac/store/aggregate.rs`
//! forms the exchange and settles it.
use crate::sim::time::{Time, MS};

/// ADDBA Request and Response frames (802.11-2020 9.6.4.2, 9.6.4.3): the management
/// frame header (24 bytes), a body of 9 (Category, Block Ack Action, Dialog Token, then
/// the Block Ack Parameter Set, Block Ack Timeout Value and Block Ack Starting Sequence
/// Control of a Request, or the Status Code, Block Ack Parameter Set and Block Ack
/// Timeout Value of a Response; 2 bytes each) and the FCS.
pub const ADDBA_FRAME: u32 = 24 + 9 + 4;

/// How long an originator waits for the ADDBA Response after the Request's ACK
/// (ns-3.37's `QosTxop::AddBaResponseTimeout` default; the standard leaves it to the
/// implementation).
pub const ADDBA_RESPONSE_TIMEOUT: Time = MS;

/// After a failed setup (the Request discarded, or no Response in time), how long MPDUs
/// go alone before a new Request (ns-3.37's `QosTxop::FailedAddBaTimeout` default).
pub const FAILED_ADDBA_TIMEOUT: Time = 200 * MS;

/// The Block Ack agreement of a session, as its originator sees it (the module note).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Agreement {
    /// None yet: the next A-MPDU's access sends an ADDBA Request instead.
    None,
    /// The Request went `retries` times without its ACK; it goes again, and the session's
    /// MPDUs wait.
    Requesting {
        retries: u32,
    },
    /// The Request was acknowledged: the session's MPDUs wait for the Response until
    /// `until`.
    Awaiting {
        until: Time,
    },
    /// No Response in time, or the Request discarded: MPDUs go alone (each acknowledged
    /// by an ACK) until a Response arrives, and a new Request goes from `retry_at`.
    NoReply {
        retry_at: Time,
    },
    Established,
}

/// An ADDBA Response a recipient entity owes: to entity `from`'s session `session`, with
/// its failed attempts so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Response {
    pub(super) from: u32,
    pub(super) session: u32,
    pub(super) retries: u32,
}

/// An entity's current exchange when it sends an ADDBA frame rather than data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    /// The Request of its session `0` (index in the entity's sessions).
    Request(u32),
    /// The first Response the entity owes.
    Response(Response),
}

/// The ADDBA frame an entity sends before any other frame, if any: the first Response it
/// owes (`owed`), else the Request of its first session (in the order of `agreements`,
/// its sessions' agreements) whose Request goes again (its MPDUs wait meanwhile). What
/// its head is before it wins the medium; [`needs_setup`] decides once it has won.
pub(super) fn pending(
    owed: &[Response],
    mut agreements: impl Iterator<Item = Agreement>,
) -> Option<Action> {
    if let Some(&r) = owed.first() {
        return Some(Action::Response(r));
    }
    let s = agreements.position(|a| matches!(a, Agreement::Requesting { .. }))?;
    Some(Action::Request(s as u32))
}

/// Whether a session whose agreement is `agreement` sends an ADDBA Request when its
/// entity wins the medium at `now` (none [`pending`]; the run sends A-MPDUs): when it has
/// no agreement (a failed setup's [`FAILED_ADDBA_TIMEOUT`] over at `now`: none again)
/// and, as ns-3.37's `NeedSetupBlockAck`, the PHY is VHT or more than one MPDU waits for
/// the recipient (`waiting()`: the session's unacknowledged ones and the entity's queued
/// packets to it).
pub(super) fn needs_setup(
    agreement: &mut Agreement,
    now: Time,
    vht: bool,
    waiting: impl FnOnce() -> usize,
) -> bool {
    if matches!(*agreement, Agreement::NoReply { retry_at } if now >= retry_at) {
        *agreement = Agreement::None;
    }
    *agreement == Agreement::None && (vht || waiting() > 1)
}
