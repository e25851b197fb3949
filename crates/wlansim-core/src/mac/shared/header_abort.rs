//! After a collision, the nodes that did not transmit and lost the PHY header of the frame
//! they locked onto: ns-3.37 counts AIFS, not EIFS, after the busy end
//! ([`HeaderFailure::Abort`], `profile = "ns3"` with SINR reception; both media, the
//! header drawn by one function, [`Reception::decodes_header`]).
//!
//! 802.11-2020 10.3.2.3.7 begins EIFS after a frame the PHY indicated as received in
//! error; the standard's profile takes every frame of a collision that way at every node
//! (EIFS after any collision not captured). ns-3.37's PHY (preamble detection off) locks
//! onto the first frame to arrive and decodes its PHY header field by field at the SINR
//! the other frames leave it (`InterferenceHelper::CalculatePhyHeaderSnrPer`): L-SIG at
//! its end (`OfdmPhy::EndReceiveHeader`: on failure `L_SIG_FAILURE`, action ABORT,
//! `PhyEntity::AbortCurrentReception`), then HT-SIG or VHT-SIG-A (`HtPhy::EndReceiveHtSig`,
//! `VhtPhy::EndReceiveSig`: `HT_SIG_FAILURE`/`SIG_A_FAILURE`, action DROP, the medium
//! CCA-busy to the PPDU's end, `PhyEntity::EndReceiveField`). Either way the PHY never
//! switched to RX (that comes with the payload, `PhyEntity::StartReceivePayload`), so no
//! RX-end error reaches the `ChannelAccessManager` (`NotifyRxEndErrorNow` is what sets
//! `m_lastRxReceivedOk = false`, the only EIFS of `GetAccessGrantStart`): the node counts
//! AIFS from the busy end. A node that decodes the header receives the PSDU in error
//! (`NotifyRxEndErrorNow`) and defers EIFS, as here.
//!
//! With every frame at one power (one collision domain) the frames of a collision of two
//! meet at 0 dB, of three at −3 dB: on ns-3's tables (`error_model = "table"`) an HT/VHT
//! header (L-SIG and HT-SIG/VHT-SIG-A, BPSK 1/2) fails at 1.0 % and 77.6 %, a non-HT
//! one (L-SIG) at 0.33 % and 39.3 %, a DSSS one almost never (docs/validation-ns3.md,
//! "The bystanders of a collision, traced").
//!
//! Here, when a grant ends in a collision that no receiver captured (`mac/capture.rs`),
//! each node that did not transmit draws whether it decodes the header of the frame it
//! locks onto ([`Reception::bystander_decodes_header`]: the strongest, ties drawn, from
//! its own `<node>/header` stream); the entities of those that do not count from AIFS
//! after the busy end, each put aside at once with a countdown start of its own
//! (`mac/contention.rs`), while their class counts from EIFS − DIFS + AIFS. All of it at
//! the grant, so that the end of an exchange, on every profile's path, does no more. The addressee draws too: its own
//! decoding draw is of the header and the PSDU together (`channel/reception.rs`), so which
//! failed is drawn anew (exact where the PSDU at that SINR never decodes, as any MCS above
//! 0 at 0 dB). A node that transmitted hears nothing; with `capture = false` nobody locks
//! onto a frame and every node defers EIFS.
//!
//! The spatial medium applies the rule per node, where each node's own reception already
//! locked onto a frame and drew it, header × PSDU, at its SINRs (`channel/receiver.rs`):
//! a node that did not transmit and lost that frame by that draw draws its header, at
//! the worst SINR over the header's span, given the loss, from its `<node>/header`
//! stream ([`Reception::decodes_header`] with `lost`: exact, the header lost at its own
//! odds); one that lost the header sets no errored end (`Ended::header_aborted`,
//! `mac/spatial.rs`) and counts AIFS after its medium turns idle, the others EIFS from
//! where [`EifsStart`] puts it. Any frame the node locked onto, in a collision or alone;
//! with `capture = false` a frame overlapped is lost with no draw, and EIFS follows as
//! here.
//!
//! [`EifsStart`]: crate::mac::EifsStart
//! [`HeaderFailure::Abort`]: crate::channel::reception::HeaderFailure::Abort
//! [`Reception::bystander_decodes_header`]: crate::channel::Reception::bystander_decodes_header
//! [`Reception::decodes_header`]: crate::channel::Reception::decodes_header
use super::Shared;
use crate::channel::{Channel, Ppdu};
use crate::mac::exchange::{data_ppdu, ppdu};
use crate::mac::store::Store;
use crate::phy::frame::RTS;
use crate::sim::time::Time;

impl Shared {
    /// The grant at `now` ended in a collision no receiver captured, on the air until
    /// `end`: the nodes that did not transmit and lose the PHY header of the frame they
    /// lock onto count from AIFS after `end`, each of their entities aside with that
    /// countdown start of its own; their class's comes when the collision ends (EIFS −
    /// DIFS + AIFS), and an entity aside keeps its own. Under [`HeaderFailure::Abort`]
    /// only; out of line: once per collision.
    ///
    /// [`HeaderFailure::Abort`]: crate::channel::reception::HeaderFailure::Abort
    #[inline(never)]
    pub(in crate::mac) fn abort_headers(
        &mut self,
        store: &mut Store,
        now: Time,
        end: Time,
        channel: &mut Channel,
    ) {
        self.frames.clear();
        for &t in &self.transmitters {
            self.frames.push(first_ppdu(store, t));
        }
        self.header_aborts.clear();
        let nodes = self.first_entity.len() - 1;
        for rx in 0..nodes as u32 {
            let (first, last) = (
                self.first_entity[rx as usize],
                self.first_entity[rx as usize + 1],
            );
            let transmits = first == last // (no entity: it never contends)
                || self
                    .transmitters
                    .iter()
                    .any(|&t| store.entities[t as usize].node == rx);
            if transmits {
                continue;
            }
            self.powers.clear();
            for &t in &self.transmitters {
                let p = channel.power_w(store.entities[t as usize].node, rx, now);
                self.powers.push(p);
            }
            let reception = channel.reception.as_mut().expect("SINR reception");
            if !reception.bystander_decodes_header(rx, &self.frames, &self.powers) {
                self.header_aborts.push(rx);
            }
        }
        #[cfg(test)]
        if self.reference {
            // The reference scan sets every entity's start when the collision ends
            // (`reference_header_aborts`).
            return;
        }
        for i in 0..self.header_aborts.len() {
            let node = self.header_aborts[i] as usize;
            for e in self.first_entity[node]..self.first_entity[node + 1] {
                let ent = &mut store.entities[e as usize];
                let aifs = ent.params.aifs;
                self.contention.take(e, &mut ent.backoff);
                ent.backoff.countdown_start = end + aifs;
                self.contention
                    .restore(e, &store.entities[e as usize], true);
            }
        }
    }

    /// The reference scan: the collision ended at `end`, after every entity took its
    /// class's countdown start; those of the nodes that lost its header count from AIFS.
    #[cfg(test)]
    pub(super) fn reference_header_aborts(&mut self, store: &mut Store, end: Time) {
        for &node in &self.header_aborts {
            for e in self.first_entity[node as usize]..self.first_entity[node as usize + 1] {
                let ent = &mut store.entities[e as usize];
                ent.backoff.countdown_start = end + ent.params.aifs;
            }
        }
        self.header_aborts.clear();
    }
}

/// The first frame entity `t` sends in its exchange, as a receiver's PHY header sees it:
/// an RTS, an aggregating entity's ADDBA frame or BlockAckReq (non-HT,
/// [`Aggregation::first_frame`]), or its data frame.
///
/// [`Aggregation::first_frame`]: crate::mac::aggregate::Aggregation::first_frame
fn first_ppdu(store: &Store, t: u32) -> Ppdu {
    let head = store.entities[t as usize].head.expect("has frame");
    let link = store.head_link(t);
    let phy = &store.phy;
    if head.times.rts {
        return ppdu(phy, link, link.rates.rts, RTS);
    }
    let first = store.aggregation.as_ref().filter(|_| store.aggregates(t));
    match first.and_then(|agg| agg.first_frame(t)) {
        Some(first) => first.ppdu(phy, link),
        None => data_ppdu(phy, link, 0),
    }
}
