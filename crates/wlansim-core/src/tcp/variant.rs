//! The named TCP variants (scenario key `tcp.variant`): each is a window-growth rule and a
//! loss-recovery rule, which [`super::cc`] and the sender apply.

/// TCP congestion-control variant: a window-growth rule and a loss-recovery rule. Names
/// (scenario key `tcp.variant`) are the growth rule's, then the recovery rule's when it is
/// not the growth rule's usual one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// "tahoe": fast retransmit, then slow start from one segment (go-back-N from the
    /// loss), as 4.3BSD-Tahoe and ns-2's Agent/TCP.
    Tahoe,
    /// "reno": RFC 5681 fast retransmit / fast recovery.
    Reno,
    /// "newreno": RFC 6582: fast recovery stays until the recovery point is acknowledged;
    /// partial ACKs retransmit the next hole.
    NewReno,
    /// "sack": AIMD with SACK-based loss recovery (RFC 2018, RFC 6675).
    Sack,
    /// "vegas": Vegas growth with Reno recovery (Brakmo & Peterson built Vegas on Reno;
    /// ns-2's Agent/TCP/Vegas).
    Vegas,
    /// "vegas-sack": Vegas growth with SACK recovery.
    VegasSack,
    /// "cubic": CUBIC growth with NewReno recovery.
    Cubic,
    /// "cubic-sack": CUBIC growth with SACK recovery (Linux's default).
    CubicSack,
}

/// Window growth / reduction rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// RFC 5681 slow start + congestion avoidance; ssthresh = max(FlightSize/2, 2·SMSS).
    Aimd,
    /// TCP Vegas ([`super::vegas`]).
    Vegas,
    /// CUBIC, RFC 9438 ([`super::cubic`]).
    Cubic,
}

/// Loss-recovery rule applied by the sender on duplicate and partial ACKs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossRecovery {
    Tahoe,
    Reno,
    NewReno,
    /// RFC 6675 (needs SACK on both ends; NewReno if the peer does not permit it).
    Sack,
}

impl Variant {
    pub fn growth(self) -> Growth {
        match self {
            Variant::Tahoe | Variant::Reno | Variant::NewReno | Variant::Sack => Growth::Aimd,
            Variant::Vegas | Variant::VegasSack => Growth::Vegas,
            Variant::Cubic | Variant::CubicSack => Growth::Cubic,
        }
    }

    pub fn loss_recovery(self) -> LossRecovery {
        match self {
            Variant::Tahoe => LossRecovery::Tahoe,
            Variant::Reno | Variant::Vegas => LossRecovery::Reno,
            Variant::NewReno | Variant::Cubic => LossRecovery::NewReno,
            Variant::Sack | Variant::VegasSack | Variant::CubicSack => LossRecovery::Sack,
        }
    }
}
