//! After a collision, the nodes that did not transmit and lost the PHY header of the frame
//! they locked onto: ns-3.37 counts AIFS, not EIFS, after the busy end
//! ([`HeaderFailure::Abort`], `profile = "ns3"` with SINR reception; the shared medium).
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
//! after the busy end, each aside with a countdown start of its own (`mac/contention.rs`),
//! while their class counts from EIFS − DIFS + AIFS. The addressee draws too: its own
//! decoding draw is of the header and the PSDU together (`channel/reception.rs`), so which
//! failed is drawn anew (exact where the PSDU at that SINR never decodes, as any MCS above
//! 0 at 0 dB). A node that transmitted hears nothing; with `capture = false` nobody locks
//! onto a frame and every node defers EIFS. The spatial medium does not apply the rule.
//!
//! [`HeaderFailure::Abort`]: crate::channel::reception::HeaderFailure::Abort
//! [`Reception::bystander_decodes_header`]: crate::channel::Reception::bystander_decodes_header
use super::Shared;
use crate::channel::{Channel, Ppdu};
use crate::mac::exchange::{data_ppdu, ppdu};
use crate::mac::store::Store;
use crate::phy::frame::{BLOCK_ACK_REQ, RTS};
use crate::sim::time::Time;

impl Shared {
    /// The grant at `now` ended in a collision no receiver captured: the nodes that did not
    /// transmit and lost the PHY header of the frame they locked onto go into
    /// `header_aborts` (under [`HeaderFailure::Abort`] only; out of line: once per
    /// collision).
    ///
    /// [`HeaderFailure::Abort`]: crate::channel::reception::HeaderFailure::Abort
    #[inline(never)]
    pub(in crate::mac) fn draw_header_aborts(
        &mut self,
        store: &Store,
        now: Time,
        channel: &mut Channel,
    ) {
        debug_assert!(self.header_aborts.is_empty());
        self.frames.clear();
        for &t in &self.transmitters {
            self.frames.push(first_ppdu(store, t));
        }
        let nodes = self.first_entity.len() - 1;
        for rx in 0..nodes as u32 {
            let (first, end) = (
                self.first_entity[rx as usize],
                self.first_entity[rx as usize + 1],
            );
            let transmits = first == end // (no entity: it never contends)
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
    }

    /// The collision ended at `now`: the entities of the nodes in `header_aborts` count
    /// from AIFS after it.
    #[inline(never)]
    pub(in crate::mac) fn defer_header_aborts(&mut self, store: &mut Store, now: Time) {
        for i in 0..self.header_aborts.len() {
            let node = self.header_aborts[i] as usize;
            for e in self.first_entity[node]..self.first_entity[node + 1] {
                let aifs = store.entities[e as usize].params.aifs;
                #[cfg(test)]
                if self.reference {
                    store.entities[e as usize].backoff.countdown_start = now + aifs;
                    continue;
                }
                let b = &mut store.entities[e as usize].backoff;
                self.contention.take(e, b);
                b.countdown_start = now + aifs;
                self.contention
                    .restore(e, &store.entities[e as usize], true);
            }
        }
        self.header_aborts.clear();
    }
}

/// The first frame entity `t` sends in its exchange, as a receiver's PHY header sees it:
/// an RTS, a BlockAckReq or ADDBA frame (non-HT), or its data frame.
fn first_ppdu(store: &Store, t: u32) -> Ppdu {
    let head = store.entities[t as usize].head.expect("has frame");
    let link = store.head_link(t);
    let phy = &store.phy;
    if head.times.rts {
        return ppdu(phy, link, link.rates.rts, RTS);
    }
    if let Some(agg) = store.aggregation.as_ref().filter(|_| store.aggregates(t)) {
        let (s, _, _) = agg.current[t as usize];
        let bar = agg.sessions[t as usize]
            .get(s as usize)
            .is_some_and(|s| s.bar);
        if agg.action[t as usize].is_some() || bar {
            // (Its size does not change the header's odds.)
            return ppdu(phy, link, link.rates.ack, BLOCK_ACK_REQ);
        }
    }
    data_ppdu(phy, link, 0)
}
