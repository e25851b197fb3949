//! The rate keys of a BSS (`[[aps]] basic_rates`, `rts_rate`, `preamble`; the beacons'
//! rate, `beacon_interval`) and of a
//! station group (`data_rate`): their checks, and the [`LinkRates`] of each station's link
//! (the rule itself: `phy/rates.rs`).
use super::checks::{err, needs_ampdus, short_preamble_rate, standard_rate};
use super::{ApConfig, Scenario, ScenarioError, StationGroup};
use crate::mac::beacon::{beacon_elements, BeaconSpec};
use crate::mac::rate::first_reports::FirstReports;
use crate::mac::rate::minstrel_ht::Airtime;
use crate::mac::rate::{minstrel_ht, RateAlgorithm, MAX_RUNGS};
use crate::phy::ht::HtMode;
use crate::phy::rates::mandatory_rates;
use crate::phy::{channels, LinkRates, Phy, Preamble, Standard};
use crate::sim::time::Time;

impl Scenario {
    /// The AP a station group belongs to (validated scenarios only).
    fn ap_config(&self, g: &StationGroup) -> &ApConfig {
        let name = self.ap_of(g);
        self.aps
            .iter()
            .find(|a| a.name == name)
            .expect("validated: the group's AP exists")
    }

    /// The preamble of the BSS of `ap`.
    fn bss_preamble(&self, ap: &ApConfig) -> Preamble {
        ap.preamble.unwrap_or(self.phy.preamble)
    }

    /// PLCP time of the BSS of `ap`: `phy.plcp` when given, else the standard's PLCP for
    /// the BSS's preamble.
    fn bss_plcp(&self, phy: &Phy, ap: &ApConfig) -> Time {
        match (self.phy.plcp, ap.preamble) {
            (None, Some(p)) => self.phy.standard.preset(p).plcp,
            _ => phy.plcp,
        }
    }

    /// The BSS's basic rate set when its rules are the standard's: it states
    /// `basic_rates` (802.11n/ac: or takes their default, the mandatory rates 6, 12 and
    /// 24 Mb/s) and `phy.control_rate` does not override every control frame.
    fn bss_basic_rates(&self, ap: &ApConfig) -> Option<Vec<u64>> {
        match (&ap.basic_rates, self.phy.control_rate) {
            (Some(basic), None) => Some(basic.iter().map(|r| r.0).collect()),
            (None, None) if self.phy.standard.ht_format().is_some() => {
                Some(mandatory_rates(self.phy.standard).to_vec())
            }
            _ => None,
        }
    }

    /// The (primary) channel of the BSS of `ap`.
    pub fn bss_channel(&self, phy: &Phy, ap: &ApConfig) -> u16 {
        ap.channel.unwrap_or(channels::default_channel(phy.band))
    }

    /// An AP's beacons: at the lowest rate of its basic rate set (`phy.control_rate`, or
    /// the PHY's lowest rate, when it states none), with its preamble.
    pub fn beacons(&self, phy: &Phy, ap: &ApConfig) -> Option<BeaconSpec> {
        let interval = ap.beacon_interval?.0;
        let basic = self
            .bss_basic_rates(ap)
            .unwrap_or_else(|| vec![phy.control_rate]);
        let rate = *basic.iter().min().expect("validated: a basic rate");
        let ssid = ap.ssid.as_ref().unwrap_or(&ap.name);
        Some(BeaconSpec {
            interval,
            rate,
            plcp: self.bss_plcp(phy, ap),
            elements: beacon_elements(phy, self.bss_channel(phy, ap), ssid, &basic),
        })
    }

    /// The timing of one UDP packet's exchange on the link of the first station group
    /// (what the analytical models read: `wlansim.phy.timing`).
    pub fn timing(&self, udp_payload_bytes: u32) -> crate::phy::Timing {
        let phy = self.phy();
        let link = crate::phy::LinkTimes::new(&phy, self.link_rates(&phy, &self.stations[0]));
        let mut timing = phy.timing(&link, udp_payload_bytes);
        if let Some(config) = self.aggregation() {
            use crate::phy::frame::{IP_HEADER, UDP_HEADER};
            use crate::sim::time::to_secs;
            let ip_bytes = IP_HEADER + UDP_HEADER + udp_payload_bytes;
            let rts = self.mac.rts_threshold.bytes();
            // A saturated source keeps its queue full: an A-MPDU takes at most the queue.
            let queue = self.stations[0].queue.unwrap_or(self.mac.queue);
            let (a, body) = config.saturated(&phy, &link, rts, None, (ip_bytes, queue));
            let ampdu = config.ampdu();
            timing.ampdu_mpdus = Some(a.mpdus);
            timing.ampdu_frame_s = Some(to_secs(link.data(&phy, a.psdu(&phy, ampdu))));
            let response = if ampdu { link.block_ack } else { link.ack };
            timing.block_ack_s = Some(to_secs(response));
            timing.block_ack_req_s = ampdu.then(|| to_secs(link.block_ack_req));
            timing.amsdu_msdus = (self.mac.amsdu_max_bytes > 0).then_some(body.count);
        }
        timing
    }

    /// The aggregation of the run (`mac.ampdu_max_bytes`, `mac.ba_window`,
    /// `mac.amsdu_max_bytes`); None: one packet per MPDU, one MPDU per exchange.
    pub fn aggregation(&self) -> Option<crate::mac::aggregate::AggregationConfig> {
        let (ampdu, amsdu) = (self.mac.ampdu_max_bytes, self.mac.amsdu_max_bytes);
        (ampdu > 0 || amsdu > 0).then_some(crate::mac::aggregate::AggregationConfig {
            max_bytes: ampdu,
            // Without A-MPDU each MPDU waits for the previous one's ACK.
            window: if ampdu > 0 { self.mac.ba_window } else { 1 },
            amsdu_bytes: amsdu,
            delivery: self.mac_profile().delivery(),
            queue_counts_in_flight: self.queue_counts_in_flight(),
            single_ack: self.single_mpdu_ack(),
            single_retry_limit: self.single_mpdu_retry_limit(),
        })
    }

    /// The rates of the frames between the stations of `g` and their AP.
    pub fn link_rates(&self, phy: &Phy, g: &StationGroup) -> LinkRates {
        let data = g.data_rate.map_or(phy.data_rate, |r| r.0);
        self.rates_at(phy, g, (data, phy.ht))
    }

    /// The rate controller of the links of `g`'s stations (`mac.rate_control`, or the
    /// group's own).
    pub fn rate_control(&self, g: &StationGroup) -> RateAlgorithm {
        g.rate_control.unwrap_or(self.mac.rate_control)
    }

    /// The rates a controller of `g`'s links chooses from (`mac/rate/`): every standard
    /// rate of the PHY's modulation, or on 802.11n/ac every MCS valid at the configured
    /// streams, width and guard interval, lowest first; for Minstrel-HT every MCS of each
    /// of its groups ([`minstrel_ht::group_modes`]); each with its control frames' rates.
    pub fn rate_ladder(&self, phy: &Phy, g: &StationGroup) -> Vec<LinkRates> {
        let at = |m: HtMode| self.rates_at(phy, g, (m.rate_bps().round() as u64, Some(m)));
        match phy.ht {
            Some(top) if self.rate_control(g) == RateAlgorithm::MinstrelHt => {
                minstrel_ht::group_modes(top).into_iter().map(at).collect()
            }
            Some(top) => (0..=top.format.max_mcs())
                .map(|mcs| HtMode { mcs, ..top })
                .filter(|m| m.check().is_ok())
                .map(at)
                .collect(),
            None => phy
                .standard
                .rates()
                .iter()
                .map(|&r| self.rates_at(phy, g, (r, None)))
                .collect(),
        }
    }

    /// The rates of `g`'s link with data frames at `data` (in HT/VHT mode `ht`).
    fn rates_at(
        &self,
        phy: &Phy,
        g: &StationGroup,
        (data, ht): (u64, Option<HtMode>),
    ) -> LinkRates {
        let ap = self.ap_config(g);
        let plcp = self.bss_plcp(phy, ap);
        match self.bss_basic_rates(ap) {
            Some(basic) => LinkRates::standard(
                phy.standard,
                &basic,
                (data, ht),
                ap.rts_rate.map(|r| r.0),
                plcp,
            ),
            None => LinkRates {
                data,
                ht,
                plcp,
                ..LinkRates::fixed(phy)
            },
        }
    }
}

pub(super) fn check(s: &Scenario) -> Result<(), ScenarioError> {
    for (i, ap) in s.aps.iter().enumerate() {
        if let Some(b) = ap.beacon_interval {
            if b.0 < 1_024 * crate::sim::time::US {
                return err(
                    format!("aps[{i}].beacon_interval"),
                    format!(
                        "{b}: at least 1 TU (1.024 ms); the standard's is 100 TU, \"102.4 ms\""
                    ),
                );
            }
        }
    }
    let standard = s.phy.standard;
    let phy = s.phy();
    for (i, ap) in s.aps.iter().enumerate() {
        let at = |key: &str| format!("aps[{i}].{key}");
        let short = standard == Standard::Ieee80211b && s.bss_preamble(ap) == Preamble::Short;
        if let Some(basic) = &ap.basic_rates {
            if basic.is_empty() {
                return err(
                    at("basic_rates"),
                    "[]: a basic rate set holds at least one rate",
                );
            }
            for (k, &r) in basic.iter().enumerate() {
                let path = format!("aps[{i}].basic_rates[{k}]");
                standard_rate(&s.phy, &path, r)?;
                if short {
                    short_preamble_rate(&path, r.0)?;
                }
            }
        }
        if let Some(r) = ap.rts_rate {
            match &ap.basic_rates {
                None => {
                    return err(
                        at("rts_rate"),
                        format!("{r}: an RTS rate needs the BSS's basic_rates"),
                    )
                }
                Some(basic) if !basic.contains(&r) => {
                    return err(
                        at("rts_rate"),
                        format!("{r}: the RTS goes at a rate of the basic rate set (basic_rates)"),
                    )
                }
                _ => {}
            }
        }
        if short && (ap.basic_rates.is_none() || s.phy.control_rate.is_some()) {
            short_preamble_rate(&at("preamble"), phy.control_rate).map_err(|e| {
                ScenarioError::new(
                    e.path,
                    "short: the BSS's control frames would go at 1 Mb/s, which the short preamble cannot carry; set phy.control_rate or basic_rates to 2 Mb/s or more",
                )
            })?;
        }
    }
    for (i, g) in s.stations.iter().enumerate() {
        let path = format!("stations[{i}].data_rate");
        if let Some(r) = g.data_rate {
            if standard.ht_format().is_some() {
                return err(
                    path,
                    format!(
                        "{r}: {} data frames go at phy.mcs (with phy.streams, channel_width, guard_interval), the same for every station",
                        standard.name()
                    ),
                );
            }
            standard_rate(&s.phy, &path, r)?;
        }
        let ap = s.aps.iter().find(|a| a.name == s.ap_of(g));
        let short = ap.is_some_and(|ap| {
            standard == Standard::Ieee80211b && s.bss_preamble(ap) == Preamble::Short
        });
        if short {
            short_preamble_rate(&path, g.data_rate.map_or(phy.data_rate, |r| r.0))?;
        }
        let key = match g.rate_control {
            Some(_) => format!("stations[{i}].rate_control"),
            None => "mac.rate_control".into(),
        };
        rate_control(s, g, &key)?;
    }
    first_reports(s)?;
    minstrel_ht_airtime(s)?;
    in_flight_count(s)
}

/// `mac.minstrel_ht_airtime`, set: Minstrel-HT's key, with a group adapting by it.
fn minstrel_ht_airtime(s: &Scenario) -> Result<(), ScenarioError> {
    let Some(airtime) = s.mac.minstrel_ht_airtime else {
        return Ok(());
    };
    if s.stations
        .iter()
        .any(|g| s.rate_control(g) == RateAlgorithm::MinstrelHt)
    {
        return Ok(());
    }
    let value = match airtime {
        Airtime::Ns3 => "ns3",
        Airtime::Ppdu => "ppdu",
    };
    err(
        "mac.minstrel_ht_airtime".to_string(),
        format!("\"{value}\": it times Minstrel-HT's MPDUs, and no station group adapts its rate with \"minstrel_ht\" (mac.rate_control, stations[].rate_control): remove the key"),
    )
}

/// `mac.queue_counts_in_flight = true`: with A-MPDUs, whose Block Ack windows hold the
/// MPDUs in flight beside the queue, and every queue one FIFO.
fn in_flight_count(s: &Scenario) -> Result<(), ScenarioError> {
    if s.mac.queue_counts_in_flight != Some(true) || s.in_flight_count_applies() {
        return Ok(());
    }
    let allowed = "false, or true with mac.ampdu_max_bytes > 0 and no aps[].ack_queue";
    let key = "mac.queue_counts_in_flight";
    if s.mac.ampdu_max_bytes == 0 {
        let what = "counting the MPDUs of the Block Ack windows against the queue";
        return needs_ampdus(key, true, what, allowed);
    }
    err(
        key,
        format!("true: an AP's ack_queue splits its queue in two FIFOs, and the MPDUs in flight belong to neither; allowed: {allowed}"),
    )
}

/// `mac.rate_first_reports = "ns3"`: where ns-3.37's start was traced, 802.11n/ac with
/// A-MPDUs (`mac/rate/first_reports.rs`).
fn first_reports(s: &Scenario) -> Result<(), ScenarioError> {
    if s.mac.rate_first_reports != Some(FirstReports::Ns3) {
        return Ok(());
    }
    if s.first_reports_apply() {
        return Ok(());
    }
    // (`aggregation` in validate.rs refuses A-MPDUs on a PHY other than 802.11n/ac.)
    needs_ampdus(
        "mac.rate_first_reports",
        "\"ns3\"",
        "the model of ns-3.37's first reports (association, ARP, ADDBA on 802.11n/ac)",
        "\"none\", or \"ns3\" with mac.ampdu_max_bytes > 0",
    )
}

/// A group's rate controller: one of its PHY, with the rate-dependent reception model,
/// and with nothing it does not work with yet.
fn rate_control(s: &Scenario, g: &StationGroup, key: &str) -> Result<(), ScenarioError> {
    let algorithm = s.rate_control(g);
    let name = algorithm.name();
    let standard = s.phy.standard;
    let refuse = |why: String| err(key.to_string(), format!("\"{name}\": {why}"));
    match algorithm {
        RateAlgorithm::Constant => return Ok(()),
        RateAlgorithm::Minstrel if standard.ht_format().is_some() => {
            return refuse(format!(
                "Minstrel chooses among legacy rates; {} data frames go at an MCS: use \"minstrel_ht\"",
                standard.name()
            ))
        }
        RateAlgorithm::MinstrelHt if standard.ht_format().is_none() => {
            return refuse(format!(
                "Minstrel-HT chooses among HT/VHT MCS; {} has none: use \"minstrel\" (or phy.standard \"802.11n\" or \"802.11ac\")",
                standard.name()
            ))
        }
        RateAlgorithm::MinstrelHt => {
            let rates = s.phy().ht.map_or(0, |top| minstrel_ht::group_modes(top).len());
            if rates > MAX_RUNGS {
                return refuse(format!(
                    "Minstrel-HT's groups at these streams, width and guard interval hold {rates} rates, more than the {MAX_RUNGS} a link's ladder holds: fewer streams, or phy.guard_interval = \"long\""
                ));
            }
        }
        _ => {}
    }
    let sinr = s
        .channel
        .reception
        .as_ref()
        .is_some_and(|r| r.model == super::reception::ReceptionModel::Sinr);
    if !sinr {
        return refuse(
            "rate adaptation needs a reception model whose frame errors depend on the rate: set [channel.reception] model = \"sinr\" (the i.i.d. frame error rate is the same at every rate)".into(),
        );
    }
    if g.data_rate.is_some() {
        return refuse(format!(
            "the controller chooses the data rate; drop stations[].data_rate of group \"{}\"",
            g.name
        ));
    }
    if let Some(mcs) = s.phy.mcs {
        return refuse(format!(
            "the controller chooses the MCS; drop phy.mcs (it is {mcs})"
        ));
    }
    if s.phy.nonstandard_rate {
        return refuse(
            "the controller chooses among the standard's rates; drop phy.nonstandard_rate".into(),
        );
    }
    if s.mac.ampdu_max_bytes > 0 && matches!(algorithm, RateAlgorithm::Arf | RateAlgorithm::Aarf) {
        return refuse(format!(
            "ARF and AARF count frames acknowledged or not, and an A-MPDU is partly acknowledged: use \"minstrel_ht\" or \"ideal\", or set mac.ampdu_max_bytes = 0 (it is {})",
            s.mac.ampdu_max_bytes
        ));
    }
    if algorithm == RateAlgorithm::Ideal && g.mobility.is_some() {
        return refuse(format!(
            "the ideal controller here knows each link's SNR from fixed positions; group \"{}\" moves (mobility)",
            g.name
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    fn error(ap: &str, group: &str) -> (String, String) {
        let text = format!(
            "duration = \"1 s\"\n[ap]\n{ap}\n[[stations]]\nname = \"s\"\n{group}\n\
             [[flows]]\nname = \"f\"\ndirection = \"uplink\"\nstations = \"s\"\n"
        );
        let e = Scenario::from_toml(&text).expect_err("refused");
        (e.path, e.message)
    }

    #[test]
    fn bad_rate_keys_are_refused_with_their_path() {
        let (path, msg) = error("basic_rates = [\"1 Mb/s\", \"6 Mb/s\"]", "");
        assert_eq!(path, "ap.basic_rates[1]");
        assert!(msg.contains("6 Mb/s is not a rate of 802.11b"), "{msg}");
        let (path, _) = error("basic_rates = []", "");
        assert_eq!(path, "ap.basic_rates");
        let (path, msg) = error("rts_rate = \"2 Mb/s\"", "");
        assert_eq!(path, "ap.rts_rate");
        assert!(msg.contains("needs the BSS's basic_rates"), "{msg}");
        let (path, _) = error("basic_rates = [\"1 Mb/s\"]\nrts_rate = \"2 Mb/s\"", "");
        assert_eq!(path, "ap.rts_rate");
        let (path, _) = error("preamble = \"short\"", "");
        assert_eq!(path, "ap.preamble");
        let (path, _) = error("preamble = \"short\"\nbasic_rates = [\"1 Mb/s\"]", "");
        assert_eq!(path, "ap.basic_rates[0]");
        let (path, msg) = error("", "data_rate = \"3 Mb/s\"");
        assert_eq!(path, "stations[0].data_rate");
        assert!(msg.contains("allowed: 1, 2, 5.5, 11 Mb/s"), "{msg}");
        let (path, _) = error(
            "preamble = \"short\"\nbasic_rates = [\"2 Mb/s\"]",
            "data_rate = \"1 Mb/s\"",
        );
        assert_eq!(path, "stations[0].data_rate");
    }
}
