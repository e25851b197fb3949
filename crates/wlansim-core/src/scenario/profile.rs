//! The top-level `profile` key: which simulator's behaviour a whole scenario follows.
//! `ns2` selects ns-2.35's TCP (`[tcp] profile = "ns2"`, [`crate::tcp::TcpConfig::ns2`])
//! and its 802.11 MAC (`[mac] profile = "ns2"`, [`crate::mac::MacRules::Ns2`]); each part
//! can also be chosen alone in its own table, which wins over the top-level key.
use crate::mac::MacRules;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// The standards (IEEE 802.11-2012, the TCP RFCs).
    #[default]
    Standard,
    /// ns-2.35, as the seed studies ran it (see README "ns-2 compatibility").
    Ns2,
}

impl Profile {
    pub fn is_standard(&self) -> bool {
        *self == Profile::Standard
    }

    /// The MAC rules of this profile.
    pub fn mac_rules(self) -> MacRules {
        match self {
            Profile::Standard => MacRules::Standard,
            Profile::Ns2 => MacRules::Ns2,
        }
    }
}
