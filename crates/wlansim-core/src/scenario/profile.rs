//! The top-level `profile` key: which simulator's behaviour a whole scenario follows.
//! `ns2` selects ns-2.35's TCP (`[tcp] profile = "ns2"`, [`crate::tcp::TcpConfig::ns2`])
//! and its 802.11 MAC (`[mac] profile = "ns2"`, [`crate::mac::MacRules::Ns2`]); each part
//! can also be chosen alone in its own table, which wins over the top-level key.
//! `ns3` selects ns-3.37's departures from the standard that change results: its HT/VHT
//! PPDU timing ([`PsduTime::Ns3`], `phy/ht.rs`), where its EIFS begins
//! ([`EifsStart::ReceptionEnd`], `mac/eifs.rs`) and, under SINR reception, its nodes that
//! abort a collision's reception when they lose its PHY header and defer AIFS, not EIFS
//! ([`HeaderFailure::Abort`], `mac/shared/header_abort.rs`), where an A-MPDU's first
//! MPDU begins to meet interference ([`MpduSpan::Payload`]), and when an aggregating
//! entity's recipient passes up what it decoded ([`Delivery::PsduEnd`], `mac/delivery.rs`),
//! and which of a collision's equally strong frames a receiver locks onto
//! ([`TieBreak::SendOrder`], `mac/capture.rs`), with the standard's other MAC rules and TCP. All belong to the 802.11 part, as ns-2's
//! unrounded airtime does: `[mac] profile = "ns3"` chooses them alone, and `[tcp] profile`
//! has no `ns3` (the top-level `ns3` runs the standard TCP).
use crate::channel::reception::{HeaderFailure, MpduSpan, TieBreak};
use crate::mac::{Delivery, EifsStart, MacRules};
use crate::phy::PsduTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// The standards (IEEE 802.11-2012 and -2020, the TCP RFCs).
    #[default]
    Standard,
    /// ns-2.35, as the seed studies ran it (see README "ns-2 compatibility").
    Ns2,
    /// ns-3.37's departures from the standard (docs/how-to/ns3-profile.md): its HT/VHT
    /// PPDU timing (no VHT-SIG-B in an SU PPDU, 400 ns guard-interval symbols not
    /// rounded to 4 µs), its EIFS counted from the end of the reception in error, its
    /// aborted receptions (AIFS, not EIFS, after a collision whose PHY header a node
    /// lost), its A-MPDU's first MPDU decoded from the end of the PHY preamble, and the
    /// MPDUs of an A-MPDU passed up as it ends, before the BlockAck, and its receivers
    /// locked onto the frame of a collision sent first; the standard's other MAC rules
    /// and TCP.
    Ns3,
}

impl Profile {
    pub fn is_standard(&self) -> bool {
        *self == Profile::Standard
    }

    /// The MAC rules of this profile (ns-3.37's: the standard's, but for
    /// [`Profile::eifs_start`]).
    pub fn mac_rules(self) -> MacRules {
        match self {
            Profile::Standard | Profile::Ns3 => MacRules::Standard,
            Profile::Ns2 => MacRules::Ns2,
        }
    }

    /// Where this profile's EIFS begins: ns-3.37's at the end of the reception in error,
    /// the others' when the medium turns idle (802.11-2020 10.3.2.3.7).
    pub fn eifs_start(self) -> EifsStart {
        match self {
            Profile::Standard | Profile::Ns2 => EifsStart::MediumIdle,
            Profile::Ns3 => EifsStart::ReceptionEnd,
        }
    }

    /// What a node's PHY reports when the PHY header of the frame it locked onto fails
    /// (SINR reception): ns-3.37 aborts the reception with no error, the others' is a
    /// reception in error (`mac/shared/header_abort.rs`).
    pub fn header_failure(self) -> HeaderFailure {
        match self {
            Profile::Standard | Profile::Ns2 => HeaderFailure::Error,
            Profile::Ns3 => HeaderFailure::Abort,
        }
    }

    /// Where an A-MPDU's first MPDU begins to meet interference (SINR reception): ns-3.37's
    /// after the PHY preamble, the others' at the PPDU's start.
    pub fn mpdu_span(self) -> MpduSpan {
        match self {
            Profile::Standard | Profile::Ns2 => MpduSpan::PpduStart,
            Profile::Ns3 => MpduSpan::Payload,
        }
    }

    /// Which of a collision's equally strong frames a receiver locks onto (SINR
    /// reception): ns-3.37's the one it put on the air first where the MAC knows it, the
    /// others' one drawn (`mac/capture.rs`).
    pub fn tie_break(self) -> TieBreak {
        match self {
            Profile::Standard | Profile::Ns2 => TieBreak::Drawn,
            Profile::Ns3 => TieBreak::SendOrder,
        }
    }

    /// When the recipient of an aggregating entity's PSDU passes up what it decoded:
    /// ns-3.37's as the PSDU ends, before its BlockAck, the others' when the exchange ends
    /// (`mac/delivery.rs`).
    pub fn delivery(self) -> Delivery {
        match self {
            Profile::Standard | Profile::Ns2 => Delivery::ExchangeEnd,
            Profile::Ns3 => Delivery::PsduEnd,
        }
    }

    /// How this profile turns a PSDU into time on air: ns-2's from its MAC rules
    /// ([`MacRules::psdu_time`]), ns-3.37's from its HT/VHT PHY ([`PsduTime::Ns3`]).
    pub fn psdu_time(self) -> PsduTime {
        match self {
            Profile::Standard | Profile::Ns2 => self.mac_rules().psdu_time(),
            Profile::Ns3 => PsduTime::Ns3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, ScenarioError};
    use crate::sim::time::US;

    fn scenario(top: &str, mac: &str) -> Scenario {
        parse(top, mac).unwrap()
    }

    fn parse(top: &str, mac: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_toml(&format!(
            "duration = \"1 s\"\n{top}\n[phy]\nstandard = \"802.11ac\"\n[mac]\n{mac}\n\
             [[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\nprotocol = \"tcp\"\n\
             direction = \"uplink\"\nstations = \"s\"\nserver = \"h\"\n\
             [[servers]]\nname = \"h\"\n"
        ))
    }

    /// `ns3`: ns-3.37's PPDU timing (a VHT SU data frame 4 µs shorter), EIFS start,
    /// aborted receptions, MPDU spans and A-MPDU delivery, the standard's other MAC rules, TCP
    /// and routing agent; `[mac] profile = "ns3"` chooses the 802.11 part alone.
    #[test]
    fn ns3_changes_the_ppdu_timing_the_eifs_start_the_header_failure_the_mpdu_span_and_delivery() {
        let standard = scenario("", "");
        for s in [
            scenario("profile = \"ns3\"", ""),
            scenario("", "profile = \"ns3\""),
        ] {
            assert_eq!(s.phy().psdu_time, PsduTime::Ns3);
            assert_eq!(
                standard.phy().data_time(1500) - s.phy().data_time(1500),
                4 * US
            );
            assert_eq!(s.phy().ack_time(), standard.phy().ack_time());
            assert_eq!(s.mac_rules(), MacRules::Standard);
            assert_eq!(s.mac_profile().eifs_start(), EifsStart::ReceptionEnd);
            assert_eq!(standard.mac_profile().eifs_start(), EifsStart::MediumIdle);
            assert_eq!(s.mac_profile().header_failure(), HeaderFailure::Abort);
            assert_eq!(s.mac_profile().mpdu_span(), MpduSpan::Payload);
            assert_eq!(s.mac_profile().tie_break(), TieBreak::SendOrder);
            assert_eq!(s.mac_profile().delivery(), Delivery::PsduEnd);
            assert_eq!(standard.mac_profile().delivery(), Delivery::ExchangeEnd);
            assert_eq!(s.tcp_config(0), standard.tcp_config(0));
            assert_eq!(s.routing_agent(), standard.routing_agent());
        }
        // `[mac] profile` wins over the top-level key, as for ns2.
        let back = scenario("profile = \"ns3\"", "profile = \"standard\"");
        assert_eq!(back.phy(), standard.phy());
        assert_eq!(back.mac_profile().eifs_start(), EifsStart::MediumIdle);
        assert_eq!(back.mac_profile().header_failure(), HeaderFailure::Error);
        assert_eq!(back.mac_profile().mpdu_span(), MpduSpan::PpduStart);
        assert_eq!(back.mac_profile().tie_break(), TieBreak::Drawn);
        assert_eq!(back.mac_profile().delivery(), Delivery::ExchangeEnd);
        assert_eq!(
            standard.mac_profile().header_failure(),
            HeaderFailure::Error
        );
    }

    /// `mac.rate_first_reports`: ns-3.37's by default under the ns3 MAC profile on
    /// 802.11n/ac with A-MPDUs, none otherwise; the key wins over the profile.
    #[test]
    fn ns3s_first_reports_are_the_ns3_profiles_default_with_a_mpdus() {
        use crate::mac::rate::first_reports::FirstReports;
        let ampdu = "ampdu_max_bytes = 65535";
        let of = |top, mac: &str| scenario(top, mac).rate_first_reports();
        assert_eq!(of("profile = \"ns3\"", ampdu), FirstReports::Ns3);
        assert_eq!(
            of("", &format!("profile = \"ns3\"\n{ampdu}")),
            FirstReports::Ns3
        );
        assert_eq!(of("profile = \"ns3\"", ""), FirstReports::None);
        assert_eq!(of("", ampdu), FirstReports::None);
        let off = format!("{ampdu}\nrate_first_reports = \"none\"");
        assert_eq!(of("profile = \"ns3\"", &off), FirstReports::None);
    }

    /// `mac.minstrel_ht_airtime`: ns-3.37's by default under the ns3 MAC profile, the
    /// PPDU's otherwise; set without a Minstrel-HT group, refused naming the key and the
    /// value.
    #[test]
    fn ns3s_minstrel_ht_airtime_is_the_ns3_profiles_default() {
        use crate::mac::rate::minstrel_ht::Airtime;
        let of = |top, mac: &str| scenario(top, mac).minstrel_ht_airtime();
        assert_eq!(of("profile = \"ns3\"", ""), Airtime::Ns3);
        assert_eq!(of("", "profile = \"ns3\""), Airtime::Ns3);
        assert_eq!(of("", ""), Airtime::Ppdu);
        let e = parse("", "minstrel_ht_airtime = \"ns3\"").unwrap_err();
        assert_eq!(e.path, "mac.minstrel_ht_airtime");
        assert!(e.message.contains("\"ns3\"") && e.message.contains("minstrel_ht"));
    }

    /// `mac.queue_counts_in_flight`: on by default under the ns3 MAC profile with
    /// A-MPDUs, off otherwise; the key wins; `true` refused without A-MPDUs, naming the
    /// key, the value and what is allowed.
    #[test]
    fn the_mpdus_in_flight_count_against_the_queue_under_ns3_with_a_mpdus() {
        let ampdu = "ampdu_max_bytes = 65535";
        let of = |top, mac: &str| scenario(top, mac).queue_counts_in_flight();
        assert!(of("profile = \"ns3\"", ampdu));
        assert!(of("", &format!("profile = \"ns3\"\n{ampdu}")));
        assert!(!of("profile = \"ns3\"", ""));
        assert!(!of("", ampdu));
        assert!(!of(
            "profile = \"ns3\"",
            &format!("{ampdu}\nqueue_counts_in_flight = false")
        ));
        assert!(of("", &format!("{ampdu}\nqueue_counts_in_flight = true")));
        let in_config = scenario("profile = \"ns3\"", ampdu).aggregation().unwrap();
        assert!(in_config.queue_counts_in_flight);
        let err = Scenario::from_toml(
            "duration = \"1 s\"\nprofile = \"ns3\"\n[phy]\nstandard = \"802.11ac\"\n\
             [mac]\nqueue_counts_in_flight = true\n[[stations]]\nname = \"s\"\n",
        )
        .unwrap_err()
        .to_string();
        for part in [
            "mac.queue_counts_in_flight",
            "true",
            "mac.ampdu_max_bytes = 0",
            "allowed",
        ] {
            assert!(err.contains(part), "{err}");
        }
    }

    /// `mac.single_mpdu_retry_limit`: ns-3.37's `MaxSsrc` (7) by default under the ns3 MAC
    /// profile with A-MPDUs, no limit otherwise; the key wins; refused without A-MPDUs,
    /// naming the key, the value and what is allowed.
    #[test]
    fn a_lone_mpdus_retry_limit_is_ns3s_under_ns3_with_a_mpdus() {
        let ampdu = "ampdu_max_bytes = 65535";
        let of = |top, mac: &str| scenario(top, mac).single_mpdu_retry_limit();
        assert_eq!(of("profile = \"ns3\"", ampdu), Some(7));
        assert_eq!(of("", &format!("profile = \"ns3\"\n{ampdu}")), Some(7));
        assert_eq!(of("profile = \"ns3\"", ""), None);
        assert_eq!(of("", ampdu), None);
        let unlimited = format!("{ampdu}\nsingle_mpdu_retry_limit = \"unlimited\"");
        assert_eq!(of("profile = \"ns3\"", &unlimited), None);
        let four = format!("{ampdu}\nsingle_mpdu_retry_limit = 4");
        assert_eq!(of("", &four), Some(4));
        let in_config = scenario("profile = \"ns3\"", ampdu).aggregation().unwrap();
        assert_eq!(in_config.single_retry_limit, Some(7));
        let err = Scenario::from_toml(
            "duration = \"1 s\"\nprofile = \"ns3\"\n[phy]\nstandard = \"802.11ac\"\n\
             [mac]\nsingle_mpdu_retry_limit = 7\n[[stations]]\nname = \"s\"\n",
        )
        .unwrap_err()
        .to_string();
        for part in [
            "mac.single_mpdu_retry_limit",
            "7",
            "mac.ampdu_max_bytes",
            "allowed",
        ] {
            assert!(err.contains(part), "{err}");
        }
    }

    #[test]
    fn an_unknown_profile_lists_the_three() {
        let err = Scenario::from_toml("duration = \"1 s\"\nprofile = \"ns4\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`standard`, `ns2`, `ns3`"), "{err}");
    }
}
