//! A link's first reports to its rate controller (`mac.rate_first_reports`; default `ns3`
//! under `[mac] profile = "ns3"`, else `none`).
//!
//! ns-3.37's station associates, resolves ARP and sets up its Block Ack agreement before
//! its first A-MPDU, and its `WifiRemoteStationManager` reports every frame an ACK
//! answers to the rate manager (src/wifi/model/frame-exchange-manager.cc at tag ns-3.37:
//! `ReceivedNormalAck` → `ReportDataOk`, l. 1277; `NormalAckTimeout` → `ReportDataFailed`,
//! l. 866), management frames among them, which go at the lowest basic rate
//! (`WifiRemoteStationManager::GetDataTxVector`) but are credited by the manager where it
//! stands: Minstrel-HT's `DoReportDataOk` and `DoReportDataFailed`
//! (rate-control/minstrel-ht-wifi-manager.cc l. 620-725) count at `m_txrate`, and each
//! success picks the next rate (`FindRate`: the first four a sample, `m_sampleTries` = 4,
//! l. 508). Traced on `validate ns3`'s rate ladder (docs/validation-ns3.md, "Minstrel-HT's
//! first reports, modelled"), the station's reports before its first A-MPDU are, in order:
//! - 802.11n: the Association Request (85 B at 6 Mb/s, ~50 ms), then, when its
//!   application starts at 0.5 s, its ARP request (a QoS Data frame of 66 B, sent to
//!   the AP at the manager's rate: the only one of them that is), then the ADDBA Request
//!   (37 B at 6 Mb/s);
//! - 802.11ac: the Association Request (106 B at 6 Mb/s), then at 0.5 s the ADDBA
//!   Request (37 B: a VHT frame goes as an S-MPDU, under an agreement), the ARP request
//!   (its S-MPDU of 70 B, answered by a normal ACK, at the manager's rate), and the ADDBA
//!   Response to the AP's request for its ARP reply (37 B at 6 Mb/s).
//!
//! [`run`] gives a station's link those reports when its controller is made: each frame
//! and its ACK drawn once at the link's SNR by the reception model's error function
//! (`error_model`) for the frame's size and rate, from a stream of the link's own; a
//! frame lost is sent again (at the rate the controller then stands at) and reported
//! each time, up to [`ATTEMPTS`]. Their airtime is neglected (in ns-3 1.8 ms from the ARP
//! request to the first A-MPDU at 802.11n 10 dB seed 13, 2.1 ms from the ADDBA Request at
//! 802.11ac 5 dB seed 9): the reports come at time 0. What matters to Minstrel-HT's 50 ms statistics is where its intervals
//! end: the association's report falls in the interval its controller starts with (ns-3's
//! `RateInit` starts one at that report), and the rest in the next one
//! ([`StartFrame::new_interval`]: ns-3's application starts 450 ms later), which runs on
//! into the first A-MPDUs' (ns-3: 48-49 ms of them before its next update, wlansim 50 ms).
//!
//! Left out: the AP's link to the station (its Association Response and ARP reply; the
//! ladder sends nothing downlink), a frame dropped after [`ATTEMPTS`] (ns-3 would drop it
//! at Minstrel-HT's chain end, `DoNeedRetransmission`, and report it,
//! `ReportFinalDataFailed`, then associate or resolve again), and links without A-MPDUs
//! or on 802.11a/b/g, whose start ns-3 was not traced on (the key refuses `ns3` there).
use super::{RateControl, CONFIGURED};
use crate::channel::reception::Ppdu;
use crate::net::NodeId;
use crate::phy::frame::ACK;
use crate::phy::ht::Format;
use crate::sim::rng::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `mac.rate_first_reports`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstReports {
    /// ns-3.37's: the association, ARP and Block Ack set-up reported to the station's
    /// controller before its first A-MPDU (802.11n/ac with A-MPDUs).
    Ns3,
    /// None: the controller's first reports are its first data frames'.
    None,
}

/// How a frame of the start goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// At the link's management rate (the lowest basic rate), credited where the
    /// controller stands.
    Management,
    /// At the rate the controller chooses.
    Data,
}

/// One frame of a station's start: its PSDU's bytes, how it goes, and whether a statistics
/// interval has passed since the frame before it.
#[derive(Clone, Copy, Debug)]
pub struct StartFrame {
    pub bytes: u32,
    pub sent: Sent,
    pub new_interval: bool,
}

const fn frame(bytes: u32, sent: Sent, new_interval: bool) -> StartFrame {
    StartFrame {
        bytes,
        sent,
        new_interval,
    }
}

/// ns-3.37's station on 802.11n: Association Request; ARP request; ADDBA Request.
pub const HT: [StartFrame; 3] = [
    frame(85, Sent::Management, false),
    frame(66, Sent::Data, true),
    frame(37, Sent::Management, false),
];

/// ns-3.37's station on 802.11ac: Association Request; ADDBA Request; ARP request (an
/// S-MPDU); ADDBA Response.
pub const VHT: [StartFrame; 4] = [
    frame(106, Sent::Management, false),
    frame(37, Sent::Management, true),
    frame(70, Sent::Data, false),
    frame(37, Sent::Management, false),
];

/// ns-3.37's start for a ladder of `format`.
pub fn ns3_start(format: Format) -> &'static [StartFrame] {
    match format {
        Format::Ht => &HT,
        Format::Vht => &VHT,
    }
}

/// Attempts of a frame of the start: the MAC's 7 (ns-3's `MaxSsrc`, frames under the RTS
/// threshold).
pub const ATTEMPTS: u32 = 7;

/// The link `tx` → `rx`'s controller hears `start` (at time 0); `success`: the probability
/// that a frame and its ACK both get through, drawn once per attempt from `rng`. A link
/// without a controller hears nothing.
pub fn run(
    control: &mut RateControl,
    (tx, rx): (NodeId, NodeId),
    start: &[StartFrame],
    rng: &mut Rng,
    mut success: impl FnMut(Ppdu, Ppdu) -> f64,
) {
    let ppdu = |rate, bytes, ht| Ppdu {
        rate,
        bytes,
        short_preamble: false,
        ht,
    };
    if control.choose(tx, rx, 0) == CONFIGURED {
        return;
    }
    for f in start {
        if f.new_interval {
            control.interval_ended(tx, rx);
        }
        for attempt in 0..ATTEMPTS {
            let rung = control.choose(tx, rx, attempt);
            let rates = control.times(tx, rx, rung).rates;
            let (sent, ack) = match f.sent {
                Sent::Management => (ppdu(rates.mgmt, f.bytes, None), rates.mgmt),
                Sent::Data => (ppdu(rates.data, f.bytes, rates.ht), rates.ack),
            };
            let p = success(sent, ppdu(ack, ACK, None));
            let ok = rng.chance(p);
            control.start_report(tx, rx, rung, ok);
            if ok {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mac::rate::minstrel_ht::{group_modes, Airtime};
    use crate::mac::rate::{Direction, Ladder, LinkSpec, RateAlgorithm};
    use crate::phy::ht::{GuardInterval, HtMode};
    use crate::phy::{LinkRates, LinkTimes, Phy, Preamble, Standard};
    use crate::sim::rng::StreamKind;

    const STA: NodeId = 1;
    const AP: NodeId = 0;

    fn phy() -> Phy {
        Standard::Ieee80211n.preset(Preamble::Long)
    }

    /// A station's link to its AP over 802.11n 20 MHz MCS 0-7, its controller `algorithm`.
    fn control(algorithm: RateAlgorithm) -> RateControl {
        let phy = phy();
        let top = HtMode {
            format: Format::Ht,
            mcs: 7,
            streams: 1,
            width_mhz: 20,
            guard_interval: GuardInterval::Long,
        };
        let rungs = group_modes(top)
            .into_iter()
            .map(|m| {
                let rates = LinkRates {
                    data: m.rate_bps() as u64,
                    ht: Some(m),
                    ..LinkRates::fixed(&phy)
                };
                LinkTimes::new(&phy, rates)
            })
            .collect();
        let spec = LinkSpec {
            direction: Direction::Up,
            tx: STA,
            rx: AP,
            ladder: 0,
            algorithm,
            snr: 10.0,
            rng: Rng::named(1, StreamKind::Rate, "sta>ap/rate"),
        };
        let ladder = Ladder::new(&phy, rungs, Airtime::Ppdu);
        RateControl::new(2, vec![ladder], vec![spec])
    }

    /// The start of [`HT`] on a Minstrel-HT link, each frame and its ACK through at
    /// `success(frame's MCS or None, frame)`: the frames sent, in order.
    fn start(success: impl Fn(Option<u8>) -> f64) -> (RateControl, Vec<(Ppdu, Ppdu)>) {
        let mut c = control(RateAlgorithm::MinstrelHt);
        let mut sent = Vec::new();
        let mut rng = Rng::named(1, StreamKind::Rate, "sta>ap/rate/first");
        run(&mut c, (STA, AP), &HT, &mut rng, |frame, ack| {
            sent.push((frame, ack));
            success(frame.ht.map(|m| m.mcs))
        });
        (c, sent)
    }

    /// Every frame through: the Association Request and the ADDBA Request go at the
    /// management rate, non-HT, the ARP request at the MCS the controller chose after the
    /// association's report, each with its ACK; none is counted as a data attempt.
    #[test]
    fn each_frame_goes_once_at_its_rate_and_no_attempt_is_counted() {
        let mgmt = LinkRates::fixed(&phy()).mgmt;
        let (c, sent) = start(|_| 1.0);
        let sizes: Vec<u32> = sent.iter().map(|(f, _)| f.bytes).collect();
        assert_eq!(sizes, [85, 66, 37]);
        for i in [0, 2] {
            assert_eq!(
                (sent[i].0.rate, sent[i].0.ht, sent[i].1.rate),
                (mgmt, None, mgmt)
            );
        }
        let arp = sent[1].0.ht.expect("an HT data frame");
        assert_eq!(sent[1].0.rate, arp.rate_bps() as u64);
        assert_eq!(sent[1].1.bytes, ACK);
        assert!(c.tally.iter().all(|t| t.attempts == 0));
    }

    /// A frame lost is sent again at the rate the controller's chain moves to: the ARP
    /// request, lost at every MCS but 0, goes at the association's sample, then at MCS 0
    /// (Minstrel-HT's best throughput before any statistics), where it gets through.
    #[test]
    fn a_lost_frame_goes_again_where_the_chain_moves() {
        let (_, sent) = start(|mcs| if mcs.unwrap_or(0) == 0 { 1.0 } else { 0.0 });
        let arp: Vec<u8> = sent
            .iter()
            .filter_map(|(f, _)| f.ht.map(|m| m.mcs))
            .collect();
        assert_eq!(arp.len(), 2, "{arp:?}");
        assert!(arp[0] > 0 && arp[1] == 0, "{arp:?}");
        // With nothing through, every frame goes ATTEMPTS times.
        let (_, sent) = start(|_| 0.0);
        assert_eq!(sent.len(), 3 * ATTEMPTS as usize);
    }

    /// A link without a controller hears nothing; the ideal manager hears the start and
    /// keeps its rate.
    #[test]
    fn constant_links_send_nothing_and_ideal_keeps_its_rate() {
        let mut c = control(RateAlgorithm::Constant);
        let mut rng = Rng::named(1, StreamKind::Rate, "x");
        run(&mut c, (STA, AP), &HT, &mut rng, |_, _| panic!("no frame"));
        let mut c = control(RateAlgorithm::Ideal);
        let before = c.choose(STA, AP, 0);
        run(&mut c, (STA, AP), &VHT, &mut rng, |_, _| 1.0);
        assert_eq!(c.choose(STA, AP, 0), before);
    }
}
