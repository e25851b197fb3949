//! When the recipient of an aggregating entity's PSDU (an A-MPDU, an MPDU sent alone under
//! aggregation, a BlockAckReq that releases what its reordering buffer held) passes up
//! the MSDUs it decoded: wlansim's standard and ns-2 profiles when the exchange ends, after
//! the BlockAck (or ACK); ns-3.37 (`profile = "ns3"`) as the PSDU ends, before it answers.
//!
//! ns-3.37 passes each MPDU of an A-MPDU up at its own end: `PhyEntity::ScheduleEndOfMpdus`
//! schedules `PhyEntity::EndOfMpdu` at the end of each subframe, which hands an MPDU
//! received correctly to the MAC (`WifiPhyStateHelper::NotifyRxMpdu`, the receive-OK
//! callback), `HtFrameExchangeManager::ReceiveMpdu` gives it to the Block Ack agreement,
//! and its reordering buffer passes the MSDUs that are in order up at once
//! (`RecipientBlockAckAgreement::NotifyReceivedMpdu`, citing 802.11-2016 10.24.7.6.2);
//! the BlockAck follows SIFS after the PSDU. So the answers of the recipient's upper
//! layers (TCP's ACKs of the segments, or the packets a host behind an AP sends back)
//! reach a queue while the medium is still busy, and their sender backs off before it
//! sends them (802.11-2020 10.23.2.2; ns-3.37 `ChannelAccessManager::NeedBackoffUponAccess`);
//! passed up when the exchange ends, they reach an empty queue inside the AIFS of an idle
//! medium and go without a backoff, as soon as the first of them is there: an AP behind
//! which a 10 Gb/s host answers an A-MPDU of 42 TCP segments (52 µs to forward them)
//! sent A-MPDUs of the ACKs that had come back within AIFS (802.11ac, TCP k = 1: 17 of
//! them where ns-3 sends 21 or 42; docs/validation-ns3.md, "The 802.11ac TCP totals:
//! when an A-MPDU's MPDUs go up").
//!
//! wlansim passes them all up as the PSDU ends, not each at its own end: one event per
//! PSDU instead of one per MPDU. No node can send before the exchange ends (its BlockAck
//! holds the medium), so what moves is only when they reach the upper layers within the
//! PSDU (ns-3's first MPDUs up to the A-MPDU's length earlier: TCP's RTT samples and the
//! packets' delays), as long as whatever answers them is queued by SIFS + BlockAck + AIFS
//! after it (91 µs at 5 GHz: the 52 µs above).
use crate::sim::time::Time;

/// When an aggregating entity's recipient passes up what it decoded of its PSDU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Delivery {
    /// When the exchange ends, after the answer (the standard's and ns-2's profiles).
    #[default]
    ExchangeEnd,
    /// ns-3.37 (`profile = "ns3"`): when the PSDU ends, before the answer.
    PsduEnd,
}

impl Delivery {
    /// When the MSDUs decoded of a PSDU that ends at `psdu_end`, in an exchange that ends
    /// at `exchange_end`, go up.
    #[inline]
    pub fn at(self, psdu_end: Time, exchange_end: Time) -> Time {
        match self {
            Delivery::ExchangeEnd => exchange_end,
            Delivery::PsduEnd => psdu_end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::US;

    /// 802.11ac 80 MHz: an A-MPDU of 42 TCP segments (1368 µs), SIFS, a BlockAck at
    /// 24 Mb/s (32 µs).
    #[test]
    fn ns3_passes_an_ampdu_up_as_it_ends_the_standard_as_its_exchange_ends() {
        let (psdu_end, exchange_end) = (1368 * US, (1368 + 16 + 32) * US);
        assert_eq!(
            Delivery::ExchangeEnd.at(psdu_end, exchange_end),
            exchange_end
        );
        assert_eq!(Delivery::PsduEnd.at(psdu_end, exchange_end), psdu_end);
    }
}
