//! Bulk-data TCP sender (active opener).
//!
//! Rules and where they come from:
//! - Handshake: SYN, SYN-ACK, ACK (RFC 793/9293); the SYN is retransmitted on timeout with
//!   exponential backoff (RFC 6298 §5.5). If the SYN was retransmitted, the initial window
//!   is one segment (RFC 5681 §3.1) and the RTO is reset to 3 s when data starts
//!   (RFC 6298 §5.7, when the initial RTO is below 3 s and no RTT sample was taken).
//! - Send window: snd_nxt may advance up to snd_una + min(cwnd, rwnd). Only full segments
//!   are sent unless nothing is outstanding (sender-side silly-window avoidance,
//!   RFC 1122 §4.2.3.4), so a window below one MSS still makes progress.
//! - Congestion control: see [`super::cc`].
//! - SACK (RFC 2018, RFC 6675; variants with [`LossRecovery::Sack`]): the SYN offers
//!   SACK-permitted; without it in the SYN-ACK the sender falls back to NewReno. Each ACK
//!   updates the scoreboard ([`super::sack`]); with SACK a duplicate ACK must SACK new
//!   data (RFC 6675 §2). Recovery starts at DupThresh duplicate ACKs or when
//!   IsLost(HighACK + 1) (§5 steps 1–2): RecoveryPoint = HighData, cwnd = ssthresh (the
//!   growth rule's), the first segment is retransmitted (HighRxt = RescueRxt = its end),
//!   then on every ACK while cwnd − pipe ≥ 1 SMSS the segment NextSeg() chooses is sent
//!   (rules 1–4: lost holes, new data, other holes below the highest SACKed octet, one
//!   rescue retransmission). Recovery ends when RecoveryPoint is cumulatively acknowledged;
//!   cwnd is not inflated. Limited transmit is RFC 3042's (one new segment on each of the
//!   first two duplicate ACKs; RFC 6675 §5 step 3 computes the same from pipe when each
//!   duplicate ACK SACKs one segment). After a timeout the SACKed information is cleared
//!   (RFC 6675 §5.1 keeps RFC 2018's rule, the receiver may have reneged), a new recovery
//!   waits until RecoveryPoint is acknowledged, and go-back-N skips what ACKs since the
//!   timeout SACK ("filling in", §5.1).
//!   ns-2's `Agent/TCP/Sack1` differs: its pipe is Fall & Floyd's 1996 counter (cwnd
//!   halved; pipe = flight − dupacks, −1 per dupack, −2 per partial ACK), every hole below
//!   the highest SACK is retransmitted once, there is no IsLost, rule 3 or rescue, and its
//!   ACKs are 40 bytes whatever the blocks (here the option adds 8·n + 4 bytes, airtime
//!   that matters on a WLAN). The two have not been compared run by run.
//! - Retransmission timer: RFC 6298 §5 (start on send if not running, stop when all data is
//!   acknowledged, restart on new ACK, back off on expiry); after a timeout, go-back-N from
//!   snd_una with cwnd = 1 SMSS (loss window, RFC 5681 §3.1) and, on the first timeout of a
//!   segment, ssthresh = max(FlightSize/2, 2·SMSS) (eq. 4).
//! - RTT sampling: without timestamps, one segment per RTT is timed and Karn's algorithm
//!   applies (no sample once anything was retransmitted, RFC 6298 §3); with timestamps,
//!   every ACK that advances snd_una gives a sample from TSecr (RFC 7323 §4.1 RTTM).
//! - Zero window: the retransmission timer doubles as persist timer (RFC 9293 §3.8.6.1):
//!   with the window closed and nothing outstanding, one segment is sent as a probe when
//!   it expires; a timeout with a closed window still retransmits one segment.
//! - Eifel detection (RFC 3522): after a timeout, if the first ACK that acknowledges the
//!   retransmission echoes a timestamp older than the retransmission's, the timeout was
//!   spurious (counted; optional response restores cwnd/ssthresh and resumes with new
//!   data, RFC 3522 §3.2 / RFC 4015 simplified).

use super::ack_info::AckInfo;
use super::cc::CongestionControl;
use super::config::{SenderRules, TcpConfig};
use super::ns2_window;
use super::rto::RtoEstimator;
use super::sack::{NextSeg, Outstanding, SackOption, Scoreboard};
use super::timer::LazyTimer;
use super::variant::LossRecovery;
use super::{ts_before, ts_clock, Flags, Segment, Seq, TcpOutput, TimerKind, TS_TICK};
use crate::sim::time::{Time, SECOND};

/// Sender counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// SYNs and pure ACKs sent.
    pub control_segments_sent: u64,
    /// Payload bytes sent, retransmissions included.
    pub bytes_sent: u64,
    /// Data segments retransmitted (timeout, fast retransmit, partial ACK, go-back-N).
    pub retransmissions: u64,
    pub retransmitted_bytes: u64,
    /// SYN retransmissions (also counted in `timeouts`).
    pub syn_retransmissions: u64,
    /// Fast-retransmit events (entries into fast retransmit/recovery).
    pub fast_retransmits: u64,
    /// Retransmission-timer expiries (SYN included).
    pub timeouts: u64,
    /// Timeouts found spurious by Eifel detection (needs timestamps).
    pub spurious_timeouts: u64,
    /// RTT samples fed to the RTO estimator, and their sum (ns, after clock quantization).
    pub rtt_samples: u64,
    pub rtt_sum: u64,
    /// ACK segments received, and among them duplicate ACKs (RFC 5681 §2 definition).
    pub acks_received: u64,
    pub dupacks_received: u64,
    /// Payload bytes cumulatively acknowledged.
    pub bytes_acked: u64,
    /// When the handshake completed and when the last byte was acknowledged.
    pub established_at: Option<Time>,
    pub completed_at: Option<Time>,
}

/// Connection state of the sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SenderState {
    Closed,
    SynSent,
    Established,
    /// All bytes of a fixed-size transfer acknowledged.
    Done,
}

#[derive(Debug, Clone, Copy)]
struct EifelState {
    /// TSval of the first timeout retransmission (RFC 3522 RetransmitTS).
    retransmit_ts: u32,
    saved_cwnd: u64,
    saved_ssthresh: u64,
}

/// Maximum segments that RFC 3042 limited transmit may add beyond cwnd.
const LIMITED_TRANSMIT_SEGMENTS: u64 = 2;

/// TCP sender endpoint. See the module documentation.
#[derive(Debug, Clone)]
pub struct TcpSender {
    cfg: TcpConfig,
    recovery: LossRecovery,
    state: SenderState,
    /// One past the last data byte (`u64::MAX` for an infinite transfer).
    data_end: Seq,
    snd_una: Seq,
    snd_nxt: Seq,
    snd_max: Seq,
    /// Latest window advertised by the receiver.
    peer_rwnd: u64,
    /// Our own advertised window (in the segments we send).
    own_rwnd: u32,
    /// Next sequence number expected from the peer (its ISS + 1).
    rcv_nxt: Seq,
    cc: CongestionControl,
    in_recovery: bool,
    /// RFC 6582 recover: snd_max when recovery (or the last timeout) began.
    recover: Seq,
    dupacks: u32,
    /// NewReno: a partial ACK was seen in this recovery ("impatient" timer, RFC 6582 §4).
    partial_ack_seen: bool,
    /// Reno/NewReno in recovery: the part of cwnd that is inflation by duplicate ACKs
    /// (ns-2's dupwnd_; only the `ns2` rules read it, `tcp/ns2_window.rs`).
    dupwnd: u64,
    /// Bytes sent by limited transmit since the last new ACK (excluded from FlightSize
    /// when computing ssthresh, RFC 3042 §2 / RFC 5681 §3.2 step 2).
    limited_transmit_bytes: u64,
    rto: RtoEstimator,
    rtx_timer: LazyTimer,
    /// Segment being timed (end sequence, send time): the RTT sample without timestamps,
    /// and the growth rules' once-per-RTT sample either way.
    timed: Option<(Seq, Time)>,
    /// SACK negotiated (both SYNs carried SACK-permitted).
    sack: bool,
    scoreboard: Scoreboard,
    /// RFC 6675 HighRxt (one past the highest octet retransmitted in this recovery) and
    /// RescueRxt (one past; `None` = undefined).
    high_rxt: Seq,
    rescue_rxt: Option<Seq>,
    syn_sent_at: Time,
    syn_retransmitted: bool,
    /// Latest TSval received from the peer (echoed as TSecr).
    ts_recent: u32,
    /// Consecutive timeouts without an intervening new ACK.
    consecutive_timeouts: u32,
    eifel: Option<EifelState>,
    stats: SenderStats,
}

impl TcpSender {
    /// A sender of `bytes` payload bytes (`None` = infinite bulk transfer). The config is
    /// assumed valid ([`TcpConfig::validate`]).
    pub fn new(cfg: &TcpConfig, bytes: Option<u64>) -> Self {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        let data_end = match bytes {
            Some(n) => n.saturating_add(1),
            None => u64::MAX,
        };
        TcpSender {
            cfg: cfg.clone(),
            recovery: cfg.variant.loss_recovery(),
            state: SenderState::Closed,
            data_end,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            peer_rwnd: 0,
            own_rwnd: cfg.rwnd_bytes().min(u32::MAX as u64) as u32,
            rcv_nxt: 0,
            cc: CongestionControl::new(cfg),
            in_recovery: false,
            recover: 0,
            dupacks: 0,
            partial_ack_seen: false,
            dupwnd: 0,
            limited_transmit_bytes: 0,
            rto: RtoEstimator::new(cfg),
            rtx_timer: LazyTimer::new(TimerKind::Retransmit),
            timed: None,
            sack: false,
            scoreboard: Scoreboard::new(if cfg.variant.loss_recovery() == LossRecovery::Sack {
                (cfg.rwnd_bytes() / cfg.mss as u64 + 2).min(1 << 16) as usize
            } else {
                0
            }),
            high_rxt: 0,
            rescue_rxt: None,
            syn_sent_at: 0,
            syn_retransmitted: false,
            ts_recent: 0,
            consecutive_timeouts: 0,
            eifel: None,
            stats: SenderStats::default(),
        }
    }

    // ----- accessors -------------------------------------------------------------------

    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }
    pub fn cwnd_bytes(&self) -> u64 {
        self.cc.cwnd
    }
    pub fn ssthresh_bytes(&self) -> u64 {
        self.cc.ssthresh
    }
    /// True once every byte of a fixed-size transfer is cumulatively acknowledged.
    pub fn is_done(&self) -> bool {
        self.state == SenderState::Done
    }
    pub fn state(&self) -> SenderState {
        self.state
    }
    pub fn snd_una(&self) -> Seq {
        self.snd_una
    }
    pub fn snd_nxt(&self) -> Seq {
        self.snd_nxt
    }
    pub fn snd_max(&self) -> Seq {
        self.snd_max
    }
    /// Bytes sent and not yet cumulatively acknowledged (snd_max − snd_una).
    pub fn flight_bytes(&self) -> u64 {
        self.snd_max - self.snd_una
    }
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    /// Current retransmission timeout (with backoff).
    pub fn rto(&self) -> Time {
        self.rto.rto()
    }
    pub fn srtt(&self) -> Option<Time> {
        self.rto.srtt()
    }
    /// CUBIC's current epoch (start, K, W_max), for tests.
    #[cfg(test)]
    pub(crate) fn cc_cubic_epoch(&self) -> Option<(Time, f64, f64)> {
        self.cc.cubic_epoch()
    }
    /// When the retransmission timer expires, if running.
    pub fn rtx_deadline(&self) -> Option<Time> {
        self.rtx_timer.deadline()
    }

    // ----- events ----------------------------------------------------------------------

    /// Active open: send the SYN and start the retransmission timer.
    pub fn open(&mut self, now: Time, out: &mut impl TcpOutput) {
        if self.state != SenderState::Closed {
            return;
        }
        self.state = SenderState::SynSent;
        self.snd_una = 0;
        self.snd_nxt = 1;
        self.snd_max = 1;
        self.send_syn(now, out);
    }

    /// The application hands over `bytes` more payload bytes (RFC 9293 SEND). Before the
    /// handshake they wait for it; a sender whose data was all acknowledged resumes with
    /// its congestion state as it was (no restart window after idle: RFC 5681 §4.1 is a
    /// SHOULD, and ns-2's agents do not apply it).
    pub fn write(&mut self, now: Time, bytes: u64, out: &mut impl TcpOutput) {
        self.data_end = self.data_end.saturating_add(bytes);
        if self.state == SenderState::Done {
            self.state = SenderState::Established;
            self.send_data(now, out);
        }
    }

    /// A segment from the receiver arrives.
    pub fn on_segment(&mut self, now: Time, seg: &Segment, out: &mut impl TcpOutput) {
        match self.state {
            SenderState::Closed => {}
            SenderState::SynSent => {
                if seg.flags.syn() && seg.flags.ack() && seg.ack == 1 {
                    self.establish(now, seg, out);
                }
            }
            SenderState::Established | SenderState::Done => {
                if seg.flags.syn() {
                    // Retransmitted SYN-ACK: our handshake ACK was lost; ACK again.
                    self.send_pure_ack(now, out);
                    return;
                }
                if self.state == SenderState::Established {
                    self.process_ack(now, seg, out);
                }
            }
        }
    }

    /// A timer armed through [`TcpOutput::arm_timer`] fires.
    pub fn on_timer(
        &mut self,
        now: Time,
        kind: TimerKind,
        generation: u32,
        out: &mut impl TcpOutput,
    ) {
        if kind != TimerKind::Retransmit || !self.rtx_timer.fire(now, generation, out) {
            return;
        }
        match self.state {
            SenderState::SynSent => {
                // RFC 6298 §5.5/5.6 applied to the SYN.
                self.stats.timeouts += 1;
                self.stats.syn_retransmissions += 1;
                self.syn_retransmitted = true;
                self.rto.backoff();
                self.send_syn(now, out);
            }
            SenderState::Established if self.snd_una < self.snd_max => self.on_rto(now, out),
            SenderState::Established if self.snd_nxt < self.data_end => {
                // Persist timer (RFC 9293 §3.8.6.1): the window was closed with nothing
                // outstanding; probe with one segment. Once it is outstanding, further
                // probes follow the retransmission timer and its backoff.
                self.send_window_probe(now, out);
            }
            _ => {}
        }
    }

    // ----- handshake -------------------------------------------------------------------

    fn send_syn(&mut self, now: Time, out: &mut impl TcpOutput) {
        self.syn_sent_at = now;
        let seg = Segment {
            seq: 0,
            ack: 0,
            len: 0,
            flags: Flags::SYN,
            rwnd: self.own_rwnd,
            ts_val: if self.cfg.timestamps {
                ts_clock(now)
            } else {
                0
            },
            ts_ecr: 0,
            sack: if self.recovery == LossRecovery::Sack {
                SackOption::PERMITTED
            } else {
                SackOption::default()
            },
        };
        out.send(seg);
        self.stats.control_segments_sent += 1;
        self.rtx_timer.set(now + self.rto.rto(), out);
    }

    fn establish(&mut self, now: Time, seg: &Segment, out: &mut impl TcpOutput) {
        self.rcv_nxt = seg.seq + 1;
        self.ts_recent = seg.ts_val;
        self.peer_rwnd = seg.rwnd as u64;
        self.sack = self.recovery == LossRecovery::Sack && seg.sack.permitted();
        if self.recovery == LossRecovery::Sack && !self.sack {
            self.recovery = LossRecovery::NewReno; // the peer does not SACK
        }
        // RTT sample from the handshake: RTTM, or the SYN if it was not retransmitted (Karn).
        if self.cfg.timestamps {
            self.take_ts_sample(now, seg.ts_ecr);
        } else if !self.syn_retransmitted {
            self.take_sample(now, now - self.syn_sent_at);
        } else if self.cfg.initial_rto < 3 * SECOND {
            self.rto.reset_to(3 * SECOND); // RFC 6298 §5.7
        }
        self.rtx_timer.cancel();
        self.snd_una = 1;
        self.snd_nxt = 1;
        self.snd_max = 1;
        self.recover = 1;
        if self.syn_retransmitted {
            self.cc.cwnd = self.cc.mss(); // RFC 5681 §3.1: IW = 1 segment after a lost SYN
        }
        self.state = SenderState::Established;
        self.stats.established_at = Some(now);
        self.send_pure_ack(now, out);
        if self.snd_una >= self.data_end {
            self.finish(now);
            return;
        }
        self.send_data(now, out);
    }

    fn send_pure_ack(&mut self, now: Time, out: &mut impl TcpOutput) {
        let seg = self.make_segment(now, self.snd_nxt.max(1), 0);
        out.send(seg);
        self.stats.control_segments_sent += 1;
    }

    // ----- ACK processing --------------------------------------------------------------

    fn process_ack(&mut self, now: Time, seg: &Segment, out: &mut impl TcpOutput) {
        self.stats.acks_received += 1;
        if self.cfg.timestamps {
            self.ts_recent = seg.ts_val;
        }
        if !seg.flags.ack() || seg.ack > self.snd_max || seg.ack < self.snd_una {
            return; // not acceptable, or old (RFC 9293 §3.10.7.4)
        }
        let rwnd_changed = seg.rwnd as u64 != self.peer_rwnd;
        self.peer_rwnd = seg.rwnd as u64;
        // RFC 6675 Update().
        let newly_sacked = if self.sack {
            self.scoreboard
                .update(seg.ack, self.snd_max, seg.sack.blocks(seg.ack))
        } else {
            0
        };
        if seg.ack > self.snd_una {
            self.on_new_ack(now, seg, out);
        } else if seg.len == 0
            && self.snd_max > self.snd_una
            && !rwnd_changed
            && !seg.flags.fin()
            && (!self.sack || newly_sacked > 0)
        {
            // RFC 5681 §2 DUPLICATE ACKNOWLEDGMENT (a)-(e); with SACK, RFC 6675 §2: it
            // must also SACK new data.
            self.on_dupack(now, out);
        } else {
            self.send_data(now, out); // window update
        }
    }

    fn on_new_ack(&mut self, now: Time, seg: &Segment, out: &mut impl TcpOutput) {
        let ack = seg.ack;
        let acked = ack - self.snd_una;
        self.stats.bytes_acked += acked;
        // The window was (nearly) full before this ACK: the flow is cwnd-limited, not
        // limited by rwnd or the application (within 2 segments, as ns-2's Vegas).
        let cwnd_limited = self.snd_max - self.snd_una + 2 * self.cc.mss() >= self.cc.cwnd;

        // RTT samples: the timed segment's (exact, once per RTT), and the estimator's.
        let mut round_rtt = None;
        if let Some((end, t0)) = self.timed {
            if ack >= end {
                self.timed = None;
                round_rtt = Some(now - t0);
            }
        }
        let rtt = if self.cfg.timestamps {
            Some(self.take_ts_sample(now, seg.ts_ecr))
        } else {
            round_rtt.map(|r| self.take_sample(now, r))
        };

        // Eifel detection (RFC 3522 §3.2): this is the first ACK acknowledging the timeout
        // retransmission (which was at the old snd_una).
        let mut spurious_response = None;
        if let Some(e) = self.eifel.take() {
            if ts_before(seg.ts_ecr, e.retransmit_ts) {
                self.stats.spurious_timeouts += 1;
                if self.cfg.eifel_response {
                    spurious_response = Some(e);
                }
            }
        }
        self.consecutive_timeouts = 0;

        self.snd_una = ack;
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        self.dupacks = 0;
        self.limited_transmit_bytes = 0;

        let mut restart_timer = true;
        let ns2 = self.cfg.sender_rules == SenderRules::Ns2;
        // Open cwnd for this ACK: outside recovery, and (ns-2) on leaving it.
        let mut grow = spurious_response.is_none() && !self.in_recovery;
        if let Some(e) = spurious_response {
            // Eifel response: undo the timeout's window reduction, stop go-back-N.
            self.cc.cwnd = e.saved_cwnd;
            self.cc.ssthresh = e.saved_ssthresh;
            self.snd_nxt = self.snd_max;
        } else if self.in_recovery {
            match self.recovery {
                // RFC 5681 §3.2 step 6: deflate and leave fast recovery on any new ACK.
                LossRecovery::Reno | LossRecovery::Tahoe if !ns2 => {
                    self.cc.cwnd = self.cc.ssthresh;
                    self.in_recovery = false;
                }
                // ns-2: drop the inflation, keep cwnd (`tcp/ns2_window.rs`).
                LossRecovery::Reno | LossRecovery::Tahoe => {
                    self.leave_recovery_ns2();
                    grow = true;
                }
                // RFC 6675 §5: recovery ends when RecoveryPoint is acknowledged; cwnd stays.
                LossRecovery::Sack => self.in_recovery = ack < self.recover,
                LossRecovery::NewReno => {
                    if ack >= self.recover && ns2 {
                        self.leave_recovery_ns2();
                        grow = true;
                    } else if ack >= self.recover {
                        // RFC 6582 §3.2 step 3, full ACK, option (1):
                        // cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
                        let mss = self.cc.mss();
                        let flight = self.snd_max - self.snd_una;
                        self.cc.cwnd = self.cc.ssthresh.min(flight.max(mss) + mss);
                        self.in_recovery = false;
                    } else {
                        // RFC 6582 §3.2 step 3, partial ACK: retransmit the first
                        // unacknowledged segment, deflate by the newly acked amount, add back
                        // one SMSS if at least one SMSS was acked; stay in recovery.
                        self.retransmit_una(now, out);
                        let mss = self.cc.mss();
                        let add_back = if acked >= mss { mss } else { 0 };
                        self.cc.cwnd = self.cc.cwnd.saturating_sub(acked).max(mss) + add_back;
                        self.dupwnd = ns2_window::deflated_dupwnd(self.dupwnd, acked, mss);
                        // "Impatient" variant (RFC 6582 §4): reset the timer only on the
                        // first partial ACK.
                        restart_timer = !self.partial_ack_seen;
                        self.partial_ack_seen = true;
                    }
                }
            }
        }
        if grow {
            self.cc.on_ack(&AckInfo {
                acked,
                now,
                round_rtt,
                srtt: self.rto.srtt(),
                rtt,
                ack,
                snd_nxt: self.snd_nxt,
                cwnd_limited,
            });
        }

        if self.snd_una >= self.data_end {
            self.finish(now);
            return;
        }
        // RFC 6298 §5.2 / §5.3.
        if self.snd_una == self.snd_max {
            self.rtx_timer.cancel();
        } else if restart_timer {
            self.rtx_timer.set(now + self.rto.rto(), out);
        }
        self.send_data(now, out);
    }

    fn on_dupack(&mut self, now: Time, out: &mut impl TcpOutput) {
        self.stats.dupacks_received += 1;
        self.dupacks += 1;
        if self.in_recovery {
            // RFC 5681 §3.2 step 4 / RFC 6582 §3.2 step 2: inflate, send if allowed.
            // RFC 6675 does not inflate: pipe accounts for the SACKed segment.
            if self.recovery != LossRecovery::Sack {
                self.cc.cwnd = self.cc.cwnd.saturating_add(self.cc.mss());
                self.dupwnd += self.cc.mss();
            }
            self.send_data(now, out);
            return;
        }
        let threshold = self.cfg.dupack_threshold;
        // RFC 6675 §5 step 2: enough SACKed data above HighACK means it is lost.
        let lost = self.sack
            && self
                .scoreboard
                .is_lost(self.snd_una, threshold, self.cc.mss());
        if self.dupacks < threshold && !lost {
            if self.cfg.limited_transmit {
                self.send_data(now, out); // RFC 3042
            }
            return;
        }
        if self.dupacks > threshold && !lost {
            return;
        }
        // Third (threshold-th) duplicate ACK. Tahoe and NewReno only start a new fast
        // retransmit if the ACK covers the recovery point (RFC 6582 §3.2 step 1; ns-2 does
        // the same for Tahoe), so that duplicates caused by go-back-N retransmissions do
        // not trigger another window reduction.
        if self.recovery != LossRecovery::Reno && !self.past_recover() {
            return;
        }
        self.stats.fast_retransmits += 1;
        let flight = (self.snd_max - self.snd_una).saturating_sub(self.limited_transmit_bytes);
        let ns2 = self.cfg.sender_rules == SenderRules::Ns2;
        // ns-2: cwnd and ssthresh from half the window (`tcp/ns2_window.rs`); Vegas's
        // cut its own (`tcp/vegas.rs`).
        let halved = if ns2 {
            let vegas = self
                .cc
                .ns2_vegas_fast_retransmit(self.peer_rwnd, self.snd_una, now);
            vegas.unwrap_or_else(|| ns2_window::halved_window(self.cc.cwnd, self.peer_rwnd))
        } else {
            0
        };
        self.cc.on_congestion_event(flight, false); // RFC 5681 §3.2 step 2, eq. 4
        if ns2 {
            let mss = self.cc.mss();
            self.cc.ssthresh = ns2_window::halved_ssthresh(self.cc.cwnd, self.peer_rwnd, mss);
        }
        self.recover = self.snd_max;
        self.timed = None;
        let mss = self.cc.mss();
        match self.recovery {
            LossRecovery::Tahoe => {
                // Retransmit and slow-start from one segment, going back to snd_una.
                self.cc.cwnd = mss;
                self.snd_nxt = self.snd_una;
                self.send_data(now, out);
            }
            LossRecovery::Reno | LossRecovery::NewReno => {
                // RFC 5681 §3.2 steps 3-4 / RFC 6582 §3.2 step 2.
                self.retransmit_una(now, out);
                self.dupwnd = threshold as u64 * mss;
                self.cc.cwnd = if ns2 { halved } else { self.cc.ssthresh } + self.dupwnd;
                self.in_recovery = true;
                self.partial_ack_seen = false;
                self.send_data(now, out);
            }
            LossRecovery::Sack => {
                // RFC 6675 §5 steps 4.1–4.4.
                self.cc.cwnd = self.cc.ssthresh;
                let len = self.first_hole_len();
                self.emit_data(now, self.snd_una, len, out);
                self.high_rxt = self.snd_una + len;
                self.rescue_rxt = Some(self.high_rxt);
                self.snd_nxt = self.snd_max; // NextSeg() chooses from now on
                self.in_recovery = true;
                self.send_data(now, out);
            }
        }
        if self.cfg.sender_rules == SenderRules::Ns2 {
            // ns-2 restarts the retransmission timer on a fast retransmit
            // (`tcp/tcp-newreno.cc` `NewRenoTcpAgent::dupack_action` → `reset_rtx_timer(1,0)`;
            // `tcp/tcp-reno.cc`, `tcp/tcp.cc` `TcpAgent::dupack_action` and
            // `tcp/tcp-sack1.cc` likewise); RFC 6298 §5 leaves the running timer alone.
            self.rtx_timer.set(now + self.rto.rto(), out);
        }
    }

    /// ns-2 leaves Reno/NewReno recovery by dropping the duplicate-ACK inflation and keeping
    /// cwnd as it stands (`tcp/ns2_window.rs`).
    fn leave_recovery_ns2(&mut self) {
        if !self.cc.ns2_vegas_recovered() {
            self.cc.cwnd = self.cc.cwnd.saturating_sub(self.dupwnd).max(self.cc.mss());
        }
        self.dupwnd = 0;
        self.in_recovery = false;
    }

    /// The cumulative ACK lies beyond the last recovery's (or timeout's) recovery point, so
    /// three duplicates of it may start a new fast retransmit (RFC 6582 §3.2 step 1: covers
    /// more than "recover", the highest octet sent then, snd_max − 1). ns-2's `bugfix_` is
    /// one packet stricter (`tcp/tcp-newreno.cc` `NewRenoTcpAgent::dupack_action`:
    /// `highest_ack_ > recover_`, packet numbers, recover_ = maxseq_ the highest packet
    /// sent): the ACK must cover a packet sent after that point.
    fn past_recover(&self) -> bool {
        if self.cfg.sender_rules == SenderRules::Ns2 {
            self.snd_una > self.recover
        } else {
            self.snd_una >= self.recover
        }
    }

    /// Retransmission-timer expiry with data outstanding (RFC 6298 §5.4-5.6, RFC 5681 §3.1).
    fn on_rto(&mut self, now: Time, out: &mut impl TcpOutput) {
        self.stats.timeouts += 1;
        let mss = self.cc.mss();
        if self.consecutive_timeouts == 0 && self.cfg.timestamps {
            self.eifel = Some(EifelState {
                retransmit_ts: ts_clock(now),
                saved_cwnd: self.cc.cwnd,
                saved_ssthresh: self.cc.ssthresh,
            });
        }
        if self.cfg.sender_rules == SenderRules::Ns2 {
            // ns-2: at every timeout, from the window without the duplicate-ACK inflation
            // (`tcp/ns2_window.rs`).
            self.cc
                .on_congestion_event(self.snd_max - self.snd_una, true);
            let cwnd = self.cc.cwnd.saturating_sub(self.dupwnd);
            self.cc.ssthresh = ns2_window::halved_ssthresh(cwnd, self.peer_rwnd, mss);
        } else if self.consecutive_timeouts == 0 {
            // RFC 5681 eq. 4, only for the first timeout of a segment.
            let flight = self.snd_max - self.snd_una;
            self.cc.on_congestion_event(flight, true);
        }
        self.scoreboard.clear(); // RFC 6675 §5.1 / RFC 2018 §8
        self.consecutive_timeouts += 1;
        // The loss window; ns-2's Vegas restarts from its `v_slowstart_`.
        let ns2_vegas = (self.cfg.sender_rules == SenderRules::Ns2)
            .then(|| self.cc.ns2_vegas_timeout(now))
            .flatten();
        self.cc.cwnd = ns2_vegas.unwrap_or(mss);
        self.in_recovery = false;
        self.partial_ack_seen = false;
        self.dupwnd = 0;
        self.dupacks = 0;
        self.limited_transmit_bytes = 0;
        self.recover = self.snd_max; // RFC 6582 §3.2 step 4
        self.snd_nxt = self.snd_una; // go-back-N
        self.timed = None; // Karn
        self.rto.backoff(); // §5.5
        self.send_data(now, out); // §5.4: retransmits the segment at snd_una
        if self.snd_nxt == self.snd_una {
            // Zero window: §5.4 still retransmits the earliest segment (it doubles as a
            // zero-window probe).
            self.send_window_probe(now, out);
        }
        self.rtx_timer.set(now + self.rto.rto(), out); // §5.6
    }

    // ----- transmission ----------------------------------------------------------------

    /// Send as much as the windows allow.
    fn send_data(&mut self, now: Time, out: &mut impl TcpOutput) {
        if self.state != SenderState::Established {
            return;
        }
        if self.in_recovery && self.recovery == LossRecovery::Sack {
            self.sack_send(now, out);
            return;
        }
        let mss = self.cc.mss();
        let lt_segments = if self.cfg.limited_transmit
            && !self.in_recovery
            && self.dupacks > 0
            && self.dupacks < self.cfg.dupack_threshold
        {
            (self.dupacks as u64).min(LIMITED_TRANSMIT_SEGMENTS)
        } else {
            0
        };
        let cwnd_limit = self.snd_una.saturating_add(self.cc.cwnd);
        let lt_limit = cwnd_limit.saturating_add(lt_segments * mss);
        let rwnd_limit = self.snd_una.saturating_add(self.peer_rwnd);
        let limit = lt_limit.min(rwnd_limit);
        while self.snd_nxt < self.data_end && self.snd_nxt < limit {
            let mut end = self.data_end;
            if self.sack && self.snd_nxt < self.snd_max {
                // Go-back-N after a timeout skips what was SACKed since (RFC 6675 §5.1).
                if let Some((_, e)) = self.scoreboard.range_at(self.snd_nxt) {
                    self.snd_nxt = e;
                    continue;
                }
                end = end.min(self.scoreboard.next_sacked(self.snd_nxt).unwrap_or(end));
            }
            let avail = limit - self.snd_nxt;
            let full = mss.min(end - self.snd_nxt);
            let len = if avail >= full {
                full
            } else if self.snd_nxt == self.snd_una {
                avail // window below one segment, nothing outstanding (no deadlock)
            } else {
                break; // wait for a full segment's worth of window (SWS avoidance)
            };
            let seq = self.snd_nxt;
            self.emit_data(now, seq, len, out);
            self.snd_nxt += len;
            if self.snd_nxt > self.snd_max {
                if self.snd_nxt > cwnd_limit.min(rwnd_limit) {
                    self.limited_transmit_bytes += self.snd_nxt - self.snd_max;
                }
                self.snd_max = self.snd_nxt;
            }
        }
        // Window closed with nothing outstanding: run the timer as persist timer.
        if self.peer_rwnd == 0
            && self.snd_una == self.snd_max
            && self.snd_nxt < self.data_end
            && !self.rtx_timer.is_running()
        {
            self.rtx_timer.set(now + self.rto.rto(), out);
        }
    }

    /// RFC 6675 §5 (C): while cwnd − pipe ≥ 1 SMSS, send what NextSeg() chooses.
    fn sack_send(&mut self, now: Time, out: &mut impl TcpOutput) {
        let mss = self.cc.mss();
        let una = self.snd_una;
        let outstanding = |s: &Self| Outstanding {
            una,
            snd_max: s.snd_max,
            high_rxt: s.high_rxt.max(una),
            dupthresh: s.cfg.dupack_threshold,
            mss,
        };
        let mut pipe = self.scoreboard.pipe(outstanding(self));
        while self.cc.cwnd >= pipe + mss {
            let (o, snd_max) = (outstanding(self), self.snd_max);
            let next = |rule3, rescue| self.scoreboard.next_seg(o, rule3, rescue);
            let rescue_allowed = self.rescue_rxt.is_none_or(|r| una >= r);
            let new_len = self.new_data_len();
            let (seq, len) = match next(false, false) {
                Some(NextSeg::Retransmit(s, l)) => {
                    self.high_rxt = s + l; // rule 1
                    (s, l)
                }
                _ if new_len > 0 => (snd_max, new_len), // rule 2
                _ => match next(true, rescue_allowed) {
                    Some(NextSeg::Retransmit(s, l)) => {
                        self.high_rxt = s + l; // rule 3
                        (s, l)
                    }
                    Some(NextSeg::Rescue(s, l)) => {
                        self.rescue_rxt = Some(self.recover); // rule 4
                        (s, l)
                    }
                    None => break,
                },
            };
            self.emit_data(now, seq, len, out);
            if seq == snd_max {
                self.snd_max += len;
                self.snd_nxt = self.snd_max;
            }
            pipe += len; // (C.4)
        }
    }

    /// Length of the next new segment the peer's window admits (0: none; a full segment
    /// unless at the end of the data; sender-side SWS avoidance as in `send_data`).
    fn new_data_len(&self) -> u64 {
        let limit = self.snd_una.saturating_add(self.peer_rwnd);
        let len = self
            .cc
            .mss()
            .min(self.data_end.saturating_sub(self.snd_max));
        if self.snd_max.saturating_add(len) <= limit {
            len
        } else {
            0
        }
    }

    /// Length of the segment at snd_una: up to one SMSS, not into SACKed data.
    fn first_hole_len(&self) -> u64 {
        let end = self.snd_max.min(self.data_end);
        let end = self
            .scoreboard
            .next_sacked(self.snd_una)
            .unwrap_or(end)
            .min(end);
        self.cc.mss().min(end - self.snd_una)
    }

    /// One segment at snd_nxt regardless of the peer's window (zero-window probe, or the
    /// RFC 6298 §5.4 retransmission when the window is zero).
    fn send_window_probe(&mut self, now: Time, out: &mut impl TcpOutput) {
        if self.snd_nxt >= self.data_end {
            return;
        }
        let seq = self.snd_nxt;
        let len = self.cc.mss().min(self.data_end - seq);
        self.emit_data(now, seq, len, out);
        self.snd_nxt += len;
        self.snd_max = self.snd_max.max(self.snd_nxt);
    }

    /// Retransmit one segment at snd_una without moving snd_nxt.
    fn retransmit_una(&mut self, now: Time, out: &mut impl TcpOutput) {
        let end = self.snd_max.min(self.data_end);
        if self.snd_una >= end {
            return;
        }
        let len = self.cc.mss().min(end - self.snd_una);
        self.emit_data(now, self.snd_una, len, out);
    }

    fn emit_data(&mut self, now: Time, seq: Seq, len: u64, out: &mut impl TcpOutput) {
        let seg = self.make_segment(now, seq, len as u32);
        out.send(seg);
        self.cc.on_sent(seq, len, now);
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len;
        if seq < self.snd_max {
            self.stats.retransmissions += 1;
            self.stats.retransmitted_bytes += len;
            // Karn: no sample across a retransmission. ns-2 stops timing only at timeouts
            // and fast retransmits (`tcp/tcp.cc` `reset_rtx_timer`), so that the segment
            // timed during a recovery gives its sample at the end (`TcpAgent::newack`);
            // the segments retransmitted meanwhile lie below it.
            let below_timed = self.timed.is_some_and(|(end, _)| seq + len < end);
            if self.cfg.sender_rules != SenderRules::Ns2 || !below_timed {
                self.timed = None;
            }
        } else if self.timed.is_none() {
            self.timed = Some((seq + len, now));
        }
        if !self.rtx_timer.is_running() {
            self.rtx_timer.set(now + self.rto.rto(), out); // RFC 6298 §5.1
        }
    }

    fn make_segment(&self, now: Time, seq: Seq, len: u32) -> Segment {
        let ts = self.cfg.timestamps;
        Segment {
            seq,
            ack: self.rcv_nxt,
            len,
            flags: Flags::ACK,
            rwnd: self.own_rwnd,
            ts_val: if ts { ts_clock(now) } else { 0 },
            ts_ecr: if ts { self.ts_recent } else { 0 },
            sack: SackOption::default(),
        }
    }

    // ----- helpers ---------------------------------------------------------------------

    fn take_sample(&mut self, now: Time, rtt: Time) -> Time {
        let r = self.rto.sample(rtt, now.saturating_sub(rtt));
        self.stats.rtt_samples += 1;
        self.stats.rtt_sum += r;
        r
    }

    /// RFC 7323 §4.1 RTTM: RTT = now − TSecr (timestamp clock ticks).
    fn take_ts_sample(&mut self, now: Time, ts_ecr: u32) -> Time {
        let ticks = ts_clock(now).wrapping_sub(ts_ecr);
        self.take_sample(now, ticks as Time * TS_TICK)
    }

    fn finish(&mut self, now: Time) {
        self.state = SenderState::Done;
        self.rtx_timer.cancel();
        self.in_recovery = false;
        self.stats.completed_at = Some(now);
    }
}
