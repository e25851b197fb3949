//! The shared medium's frame exchange of an A-MPDU (`mac/aggregate.rs`): its PHY header
//! decoded once at its start, then each MPDU decided by its own draw at its own SINR
//! (`channel/reception.rs` [`Part`]), the BlockAck or the BlockAckReq's exchange. A child
//! of the shared medium so that `mac/aggregate.rs` depends on neither medium.
use super::{Exchange, Shared};
use crate::channel::reception::MpduSpan;
use crate::channel::{Channel, FrameKind, Part, Ppdu};
use crate::mac::aggregate::{data_offset, subframes};
use crate::mac::exchange::{data_ppdu, ppdu};
use crate::mac::store::{ChannelLoss, Store};
use crate::sim::time::Time;

impl Shared {
    /// The exchange of entity `t`'s A-MPDU, alone on the medium from `start` (in a TXOP
    /// that began at `txop_start`): RTS/CTS when it is long enough, each MPDU decided by
    /// its own draw in order, the BlockAck when at least one MPDU was decoded.
    #[inline(never)]
    pub(in crate::mac) fn aggregate_exchange(
        &self,
        store: &Store,
        t: u32,
        start: Time,
        txop_start: Time,
        channel: &mut Channel,
    ) -> Exchange {
        use crate::phy::frame::{ACK, BLOCK_ACK, CTS, RTS};
        let e = &store.entities[t as usize];
        let head = e.head.expect("has frame");
        let (node, to, times) = (e.node, head.to, head.times);
        let link = *store.head_link(t);
        let phy = &store.phy;
        let (delta, sifs) = (phy.propagation_delay, phy.sifs);
        let every = channel.asks_every_frame();
        let control = |rate, bytes| ppdu(phy, &link, rate, bytes);
        // The frame from `tx` to `rx` sent `offset` into the exchange is lost (a control
        // frame only when the channel asks about every frame).
        // `mpdu`: the frame is an MPDU of an A-MPDU whose PHY header was decoded (true) or
        // lost (false: so is every MPDU of it); None: a whole PPDU.
        let lost_part = |c: &mut Channel, tx, rx, offset, kind, frame, mpdu: Option<bool>| {
            if c.frame_lost(tx, rx, start, kind) {
                return true;
            }
            if !every {
                return false;
            }
            let interference = self.interference(store, rx, start, offset, c);
            let part = match mpdu {
                Some(false) => return true,
                Some(true) => Part::Mpdu,
                None => Part::Ppdu {
                    header_interference_w: interference,
                },
            };
            !c.decodes(tx, rx, start + offset, frame, part, interference)
        };
        let lost = |c: &mut Channel, tx, rx, offset, kind, frame| {
            lost_part(c, tx, rx, offset, kind, frame, None)
        };
        let ended = |loss, end| Exchange {
            start,
            end: start + end,
            data_end: start + times.data_end,
            loss,
            txop_start,
            ..Exchange::default()
        };
        let cts_at = link.rts + delta + sifs;
        if times.rts && every {
            let rts = control(link.rates.rts, RTS);
            if lost(channel, node, to, 0, FrameKind::Control, rts) {
                return ended(ChannelLoss::Rts, times.first_frame + delta);
            }
            let cts = control(link.rates.cts, CTS);
            if lost(channel, to, node, cts_at, FrameKind::Control, cts) {
                return ended(ChannelLoss::Cts, cts_at + link.cts + delta);
            }
        }
        let data_at = data_offset(phy, &link, times.rts);
        let agg = store.aggregation.as_ref().expect("aggregation");
        // The receiver's answer `frame` SIFS after the request or the data, which gave it
        // the MPDUs of `received`.
        let answer = |c: &mut Channel, received, frame: Ppdu| {
            let ba_at = times.data_end + sifs;
            let lost = every && lost(c, to, node, ba_at, FrameKind::Control, frame);
            let loss = if lost {
                ChannelLoss::Ack
            } else {
                ChannelLoss::None
            };
            Exchange {
                success: !lost,
                received,
                ..ended(loss, times.end)
            }
        };
        if let Some(first) = agg.first_frame(t) {
            // An ADDBA Request or Response, or a BlockAckReq: the recipient decoded it
            // (bit 0; a BlockAckReq moves its window) unless lost, then its answer.
            let frame = first.ppdu(phy, &link);
            if every && lost(channel, node, to, 0, FrameKind::Control, frame) {
                return ended(ChannelLoss::Data, times.data_end);
            }
            return answer(channel, 1, first.answer(phy, &link));
        }
        let (s, count, ampdu) = agg.current[t as usize];
        let session = &agg.sessions[t as usize][s as usize];
        let bodies = session.unacked.iter().take(count as usize).map(|m| m.body);
        let mut received = 0u64;
        let data = |bytes| data_ppdu(phy, &link, bytes);
        // An A-MPDU's header, once at its start: with it lost, every MPDU is (a single MPDU
        // draws its header with its PSDU).
        let header = !ampdu
            || !every
            || channel.decodes(
                node,
                to,
                start + data_at,
                data(0),
                Part::Header,
                self.interference(store, to, start, data_at, channel),
            );
        // Each MPDU meets the frames still on the air when it begins
        // ([`MpduSpan`]: under ns-3.37's rule, the first after the PHY preamble).
        let (span, preamble) = match (channel.reception.as_ref(), link.rates.ht) {
            (Some(r), Some(mode)) if ampdu => (r.mpdu_span, mode.preamble(phy.psdu_time)),
            _ => (MpduSpan::PpduStart, 0),
        };
        for (i, (offset, bytes)) in subframes(phy, &link, ampdu, bodies).enumerate() {
            let mpdu = ampdu.then_some(header);
            let at = data_at + span.start(offset, preamble);
            if !lost_part(channel, node, to, at, FrameKind::Data, data(bytes), mpdu) {
                received |= 1 << i;
            }
        }
        if received == 0 {
            return ended(ChannelLoss::Data, times.data_end);
        }
        let bytes = if ampdu { BLOCK_ACK } else { ACK };
        answer(channel, received, control(link.rates.ack, bytes))
    }

    /// Whether the recipient of the exchange in progress passes up what it decoded of the
    /// PSDU (an A-MPDU's MPDUs, or what a BlockAckReq releases; not an ADDBA frame) as the
    /// PSDU ends, before the exchange does ([`crate::mac::Delivery::PsduEnd`]): then
    /// [`Shared::pass_up`] does it at [`MacEvent::Received`], not `exchange_end`.
    ///
    /// Worked out once, as the exchange is scheduled, into [`Exchange::passes_up`]: what it
    /// reads stays as it is until the exchange ends (the exchange and its first
    /// transmitter, set at the grant or a TXOP's next exchange; that entity's ADDBA frame,
    /// chosen as it forms its A-MPDU then and settled when the exchange ends, after this
    /// is read; the delivery rule, the run's).
    ///
    /// [`MacEvent::Received`]: crate::mac::MacEvent::Received
    #[inline]
    pub(super) fn passes_up_before_end(&self, store: &Store) -> bool {
        let ex = &self.exchange;
        ex.received != 0
            && store.aggregation.as_ref().is_some_and(|agg| {
                agg.config.delivery.at(ex.data_end, ex.end) < ex.end
                    && agg.action[self.transmitters[0] as usize].is_none()
            })
    }

    /// The PSDU of the exchange in progress ended at `now`: its recipient passes up what it
    /// decoded ([`Shared::passes_up_before_end`]).
    pub(in crate::mac) fn pass_up(&self, store: &mut Store, now: Time) {
        store.aggregate_received(self.transmitters[0], self.exchange.received, now);
    }
}
