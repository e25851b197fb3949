// An infrastructure BSS for ns-3.37 (Debian's libns3-dev), written by wlansim to compare
// its own cells with ns-3's (`wlansim validate ns3`). Every choice that matters is a
// command-line argument, so one compiled binary runs every case: the standard, the data
// and control modes, channel width, guard interval, spatial streams, RTS/CTS, A-MPDU and
// A-MSDU sizes, the stations and the load, and the ns-3 defaults wlansim models otherwise
// (preamble detection, beacons, the Block Ack agreement of VHT stations, the error
// model). The nodes stand on a circle of 0.5 m radius around the AP's point: every two of
// them are at most 1 m apart, the log-distance model's reference distance, within which
// it gives its reference loss, so every frame arrives at every node with the same power
// (16.02 dBm sent, 46.68 dB lost: -30.66 dBm), and two frames that overlap reach every
// receiver at SINR 0 dB.
//
// Saturated UDP uplink: each station's OnOffApplication offers more than the cell carries;
// the AP's PacketSink counts the bytes received between the warm-up and the end, and the
// program prints `rx_bytes N`, `window_s W`, and per station `sta I rx_bytes N` lines.
// TCP (--tcp=K): K stations upload and K download, each one bulk TCP transfer with a host
// behind the AP (a point-to-point link, --hostRate, --hostDelay), the AP's MAC queue
// holding --apQueue packets (no queue disc in front of the Wi-Fi devices: the MAC queues
// are the buffers); each receiver's PacketSink counts the payload after the warm-up, printed
// as `flow upI rx_bytes N` and `flow downI rx_bytes N` lines (and `rx_bytes`, their sum);
// With --counters=1 also the frames put on the air after the warm-up by kind (`tx_data`
// PSDUs, carrying `tx_data_mpdus` MPDUs in `tx_data_bytes` bytes, the AP's `tx_ap_data`
// carrying `tx_ap_data_mpdus`; `tx_ack`, `tx_rts`, `tx_cts`, `tx_block_ack`, `tx_bar`,
// `tx_mgt` (ADDBA among them), `tx_other`), those of them that started together with
// another frame (`tx_collisions` such groups, `tx_data_collided`, `tx_rts_collided`...
// their frames), the CTS frames sent after RTS frames that collided
// (`tx_cts_after_collision`: the AP decoded one of them), and a station's SIFS, slot and
// EIFS ACK time at the end (`phy_sifs_ns`, `phy_slot_ns`, `phy_ack_tx_ns`): a trace, so
// off by default. With --counters=1 the data frames' rates too: `tx_data_rate_kbps` (the sum
// over the data PSDUs of each one's rate, kb/s) and `tx_data_mcs` (the sum of their MCS,
// HT/VHT only), for the rate managers' mean rate and MCS, and per MCS M the PSDUs sent at it
// (`tx_data_mcsM_psdus`), their MPDUs (`tx_data_mcsM_mpdus`) and airtime
// (`tx_data_mcsM_ns`). With --tcp and --counters=1 also per node (`ap`, uploaders `u0`.., downloaders `d0`..): its data PSDUs, their MPDUs, its
// BlockAckReqs and its frames in collisions (`by_u0_data`, `by_u0_data_mpdus`, `by_u0_bar`,
// `by_u0_collided`; the AP's per receiver, `by_ap_to_d0_data`...), the MPDUs its MAC
// dropped by reason (`by_u0_drop_retry`, `_enqueue`, `_lifetime`, `_old`; an MPDU dropped
// as old after its last retry counts in both), the packets its traffic control layer
// dropped because the Wi-Fi device's queue was stopped (`by_u0_tc_drop`; the AP's by the
// station the packet was for, `by_ap_tc_drop_to_d0`...), the AP's queue length every ms,
// MPDUs in flight included (`apq_packets_sum`, per receiver `apq_to_d0_sum`, over
// `apq_samples`), and per flow its sender's data segments,
// retransmissions, fast retransmits, timeouts, cwnd every ms and RTT samples
// (`tcp_up0_segments`, `_segment_bytes`, `_retransmissions`, `_fast_retransmits`, `_timeouts`, `_cwnd_sum`,
// `_rtt_us_sum` over `_rtt_samples`) and its receiver's data segments and pure ACKs
// (`tcp_up0_rx_segments`, `tcp_up0_acks`).
//
// Rate adaptation (--rateManager, e.g. ns3::MinstrelHtWifiManager; default the constant
// --data and --control modes) at a fixed SNR: --rss=R puts every frame at R dBm
// (FixedRssLossModel) instead of the log-distance model at the nodes' positions.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"

#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
std::map<uint32_t, uint64_t> g_rx;  // bytes per sending station, after the warm-up
std::map<std::string, uint64_t> g_tx; // frames on the air after the warm-up, by kind
bool g_measuring = false;
Mac48Address g_apAddress; // the AP's: its data frames are counted apart (`tx_ap_data`...)
WifiPhyBand g_band = WIFI_PHY_BAND_5GHZ; // the PHY's band (the data frames' airtime)
// TCP with --counters=1: each node's name (`ap`, `u0`.., `d0`..), its frames counted apart.
std::map<Mac48Address, std::string> g_label;

std::string
LabelOf(Mac48Address a)
{
    auto it = g_label.find(a);
    return it == g_label.end() ? std::string() : it->second;
}

void
Received(Ptr<const Packet> p, const Address& from)
{
    if (!g_measuring)
    {
        return;
    }
    InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
    uint8_t b[4];
    a.GetIpv4().Serialize(b);
    g_rx[b[3]] += p->GetSize();
}

// The frames that started together (within 1 µs: one slot boundary, every node within
// 3.3 ns of every other) so far, by kind, and when the first of them started.
// Each frame's kind and its sender's name (empty unless named).
std::vector<std::pair<std::string, std::string>> g_group;
Time g_groupStart = Seconds(-1);

// Close the group of frames that started together: a group of two or more is a collision
// (`tx_collisions`), each of its frames counts as collided (`tx_rts_collided`...).
void
CloseGroup()
{
    if (g_group.size() > 1)
    {
        g_tx["tx_collisions"] += 1;
        for (const auto& [kind, label] : g_group)
        {
            g_tx[kind + "_collided"] += 1;
            if (!label.empty())
            {
                g_tx["by_" + label + "_collided"] += 1;
            }
        }
    }
    g_group.clear();
}

void
Transmitted(WifiConstPsduMap psdus, WifiTxVector txVector, double)
{
    if (!g_measuring)
    {
        return;
    }
    const Time now = Simulator::Now();
    for (const auto& [id, psdu] : psdus)
    {
        const WifiMacHeader& h = psdu->GetHeader(0);
        const char* kind = h.IsData()           ? "tx_data"
                           : h.IsAck()          ? "tx_ack"
                           : h.IsRts()          ? "tx_rts"
                           : h.IsCts()          ? "tx_cts"
                           : h.IsBlockAck()     ? "tx_block_ack"
                           : h.IsBlockAckReq()  ? "tx_bar"
                           : h.IsMgt()          ? "tx_mgt"
                                                : "tx_other";
        g_tx[kind] += 1;
        if (h.IsData())
        {
            // MPDUs carried (an A-MPDU carries several) and their bytes with delimiters.
            g_tx["tx_data_mpdus"] += psdu->GetNMpdus();
            g_tx["tx_data_bytes"] += psdu->GetSize();
            const WifiMode mode = txVector.GetMode();
            g_tx["tx_data_rate_kbps"] += mode.GetDataRate(txVector) / 1000;
            if (mode.GetModulationClass() >= WIFI_MOD_CLASS_HT)
            {
                g_tx["tx_data_mcs"] += mode.GetMcsValue();
                // Per MCS: the PSDUs, their MPDUs and their airtime (ns).
                const std::string m = "tx_data_mcs" + std::to_string(mode.GetMcsValue());
                g_tx[m + "_psdus"] += 1;
                g_tx[m + "_mpdus"] += psdu->GetNMpdus();
                g_tx[m + "_ns"] +=
                    WifiPhy::CalculateTxDuration(psdu, txVector, g_band).GetNanoSeconds();
            }
            if (h.GetAddr2() == g_apAddress)
            {
                g_tx["tx_ap_data"] += 1;
                g_tx["tx_ap_data_mpdus"] += psdu->GetNMpdus();
            }
        }
        // Named nodes (TCP): data PSDUs, their MPDUs and BlockAckReqs by sender
        // (`by_u0_data`, `by_u0_data_mpdus`, `by_u0_bar`; the AP's by receiver too,
        // `by_ap_to_d0_data`...), and (CloseGroup) the frames of collisions by sender.
        const std::string label = LabelOf(h.GetAddr2());
        const std::string to = LabelOf(h.GetAddr1());
        if (!label.empty() && (h.IsData() || h.IsBlockAckReq()))
        {
            const std::string what = h.IsData() ? "_data" : "_bar";
            const uint64_t mpdus = h.IsData() ? psdu->GetNMpdus() : 0;
            std::vector<std::string> keys{"by_" + label + what};
            if (h.GetAddr2() == g_apAddress)
            {
                keys.push_back("by_ap_to_" + to + what);
            }
            for (const auto& key : keys)
            {
                g_tx[key] += 1;
                g_tx[key + "_mpdus"] += mpdus;
            }
        }
        if (now - g_groupStart >= MicroSeconds(1))
        {
            // A CTS answering RTS frames that collided: the AP got one of them anyway
            // (captured at its SINR), `tx_cts_after_collision`.
            if (h.IsCts() && g_group.size() > 1)
            {
                g_tx["tx_cts_after_collision"] += 1;
            }
            CloseGroup();
            g_groupStart = now;
        }
        g_group.emplace_back(kind, label);
    }
}

// --vhtBlockAck=0: a station drops its VhtConfiguration once associated, when both sides
// have recorded the other's VHT capabilities (the channel width its frames use).
void
DropVhtConfiguration(Ptr<WifiNetDevice> dev, Mac48Address)
{
    Simulator::ScheduleNow(&WifiNetDevice::SetVhtConfiguration, dev, Ptr<VhtConfiguration>());
}

std::map<std::string, uint64_t> g_flowRx; // TCP payload bytes per flow, after the warm-up

void
FlowReceived(std::string flow, Ptr<const Packet> p, const Address&)
{
    if (g_measuring)
    {
        g_flowRx[flow] += p->GetSize();
    }
}

// TCP with --counters=1: the AP's queue and each flow's TCP, after the warm-up.
Ptr<WifiMacQueue> g_apQueue;                       // the AP's AC_BE queue
std::map<std::string, uint32_t> g_cwnd;            // each flow's sender's cwnd now, bytes
std::map<std::string, SequenceNumber32> g_highest; // each flow's highest sequence sent + 1
std::map<Ipv4Address, std::string> g_ipLabel;      // the stations' names by IP address

// An MPDU a named node's MAC dropped (`by_u0_drop_retry`...): the queue was full
// (`enqueue`), its lifetime ran out (`lifetime`), its retries ran out (`retry`), or it
// fell behind the Block Ack window (`old`).
void
MacDropped(std::string label, WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    static const char* names[] = {"enqueue", "lifetime", "retry", "old"};
    if (g_measuring)
    {
        g_tx["by_" + label + "_drop_" + names[reason]] += 1;
    }
}

// A packet a named node's traffic control layer dropped (`by_u0_tc_drop`...): with no
// queue disc in front of the Wi-Fi device, a packet that finds the device's queue stopped
// (its MAC queue full, MPDUs in flight included) is dropped there, never reaching the MAC.
void
TcDropped(std::string label, Ptr<const Packet> p)
{
    if (!g_measuring)
    {
        return;
    }
    g_tx["by_" + label + "_tc_drop"] += 1;
    // The AP's by the station the packet was for (`by_ap_tc_drop_to_d0`...).
    Ipv4Header ip;
    if (label == "ap" && p->PeekHeader(ip) > 0 && g_ipLabel.count(ip.GetDestination()) > 0)
    {
        g_tx["by_ap_tc_drop_to_" + g_ipLabel[ip.GetDestination()]] += 1;
    }
}

// Every millisecond of the measured window: the AP's queue (MPDUs in flight included, as
// ns-3 keeps them queued until acknowledged; `apq_packets_sum`, per receiver
// `apq_to_d0_sum`...) and each sender's cwnd (`tcp_up0_cwnd_sum`, bytes), over
// `apq_samples` samples.
void
Sample()
{
    g_tx["apq_samples"] += 1;
    g_tx["apq_packets_sum"] += g_apQueue->GetNPackets();
    for (const auto& [address, label] : g_label)
    {
        if (address != g_apAddress)
        {
            WifiContainerQueueId id(WIFI_QOSDATA_UNICAST_QUEUE, address, 0);
            g_tx["apq_to_" + label + "_sum"] += g_apQueue->GetNPackets(id);
        }
    }
    for (const auto& [flow, cwnd] : g_cwnd)
    {
        g_tx["tcp_" + flow + "_cwnd_sum"] += cwnd;
    }
    Simulator::Schedule(MilliSeconds(1), &Sample);
}

// A segment a flow's sender passed to IP: data segments (`tcp_up0_segments`, carrying
// `tcp_up0_segment_bytes`) and those below the highest sequence sent before
// (`tcp_up0_retransmissions`).
void
SenderTx(std::string flow, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    const SequenceNumber32 end = h.GetSequenceNumber() + p->GetSize();
    auto [it, fresh] = g_highest.emplace(flow, end);
    const bool again = !fresh && h.GetSequenceNumber() < it->second;
    if (!again)
    {
        it->second = std::max(it->second, end);
    }
    if (g_measuring)
    {
        g_tx["tcp_" + flow + "_segments"] += 1;
        g_tx["tcp_" + flow + "_segment_bytes"] += p->GetSize();
        g_tx["tcp_" + flow + "_retransmissions"] += again ? 1 : 0;
    }
}

// A sender's congestion state: entering fast recovery (`tcp_up0_fast_retransmits`) or
// loss recovery after a timeout (`tcp_up0_timeouts`).
void
SenderState(std::string flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (g_measuring && now == TcpSocketState::CA_RECOVERY)
    {
        g_tx["tcp_" + flow + "_fast_retransmits"] += 1;
    }
    if (g_measuring && now == TcpSocketState::CA_LOSS)
    {
        g_tx["tcp_" + flow + "_timeouts"] += 1;
    }
}

void
SenderCwnd(std::string flow, uint32_t, uint32_t cwnd)
{
    g_cwnd[flow] = cwnd;
}

// A sender's RTT samples (`tcp_up0_rtt_us_sum` over `tcp_up0_rtt_samples`).
void
SenderRtt(std::string flow, Time, Time rtt)
{
    if (g_measuring)
    {
        g_tx["tcp_" + flow + "_rtt_us_sum"] += rtt.GetMicroSeconds();
        g_tx["tcp_" + flow + "_rtt_samples"] += 1;
    }
}

// A segment a flow's receiver sent (`tcp_up0_acks`: pure ACKs) or received with data
// (`tcp_up0_rx_segments`).
void
ReceiverTx(std::string flow, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>)
{
    if (g_measuring && p->GetSize() == 0)
    {
        g_tx["tcp_" + flow + "_acks"] += 1;
    }
}

void
ReceiverRx(std::string flow, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>)
{
    if (g_measuring && p->GetSize() > 0)
    {
        g_tx["tcp_" + flow + "_rx_segments"] += 1;
    }
}

// The sender's traces, once its application has opened the socket.
void
TraceSender(std::string flow, Ptr<BulkSendApplication> app)
{
    Ptr<Socket> socket = app->GetSocket();
    socket->TraceConnectWithoutContext("Tx", MakeBoundCallback(&SenderTx, flow));
    socket->TraceConnectWithoutContext("CongState", MakeBoundCallback(&SenderState, flow));
    socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&SenderCwnd, flow));
    socket->TraceConnectWithoutContext("RTT", MakeBoundCallback(&SenderRtt, flow));
}

// The receiver's traces: its sink's accepted connection (at the warm-up's end).
void
TraceReceiver(std::string flow, Ptr<PacketSink> sink)
{
    for (const auto& socket : sink->GetAcceptedSockets())
    {
        socket->TraceConnectWithoutContext("Tx", MakeBoundCallback(&ReceiverTx, flow));
        socket->TraceConnectWithoutContext("Rx", MakeBoundCallback(&ReceiverRx, flow));
    }
}

void
StartMeasuring()
{
    g_measuring = true;
}

WifiStandard
StandardOf(const std::string& name)
{
    if (name == "11b")
        return WIFI_STANDARD_80211b;
    if (name == "11a")
        return WIFI_STANDARD_80211a;
    if (name == "11g")
        return WIFI_STANDARD_80211g;
    if (name == "11n-2.4" || name == "11n-5")
        return WIFI_STANDARD_80211n;
    if (name == "11ac")
        return WIFI_STANDARD_80211ac;
    NS_FATAL_ERROR("unknown standard " << name << ": 11b, 11a, 11g, 11n-2.4, 11n-5, 11ac");
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string standard = "11b";
    std::string dataMode = "DsssRate11Mbps";
    std::string controlMode = "DsssRate1Mbps";
    uint32_t n = 5;
    uint32_t width = 20;
    bool sgi = false;
    uint32_t nss = 1;
    uint32_t rtsThreshold = 65535;
    uint32_t ampdu = 0;
    uint32_t amsdu = 0;
    uint32_t payload = 1472;
    double duration = 20.0;
    double warmup = 2.0;
    uint32_t seed = 1;
    uint32_t queue = 500;
    double offered = 20e6;
    bool preambleDetection = true;
    bool beacons = true;
    bool counters = false;
    bool vhtBlockAck = true;
    bool nistErrors = false;
    uint32_t tcp = 0;
    uint32_t apQueue = 0;
    std::string hostRate = "10Gbps";
    std::string hostDelay = "1us";
    std::string rateManager = "ns3::ConstantRateWifiManager";
    double rss = 0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("standard", "11b, 11a, 11g, 11n-2.4, 11n-5 or 11ac", standard);
    cmd.AddValue("data", "ns-3 WifiMode of data frames (DsssRate11Mbps, HtMcs7, VhtMcs9...)",
                 dataMode);
    cmd.AddValue("control", "ns-3 WifiMode of control frames", controlMode);
    cmd.AddValue("n", "stations", n);
    cmd.AddValue("width", "channel width, MHz", width);
    cmd.AddValue("sgi", "short guard interval (HT/VHT)", sgi);
    cmd.AddValue("nss", "spatial streams (antennas of every node)", nss);
    cmd.AddValue("rts", "RTS threshold, bytes (0: always, 65535: never)", rtsThreshold);
    cmd.AddValue("ampdu", "maximum A-MPDU size, bytes (0: no A-MPDU)", ampdu);
    cmd.AddValue("amsdu", "maximum A-MSDU size, bytes (0: no A-MSDU)", amsdu);
    cmd.AddValue("payload", "UDP payload bytes", payload);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("warmup", "seconds not measured at the start", warmup);
    cmd.AddValue("seed", "run number of ns-3's RNG (RngRun)", seed);
    cmd.AddValue("queue", "packets the MAC queue of each node holds", queue);
    cmd.AddValue("offered", "bits/s each station offers (above its share: saturated)", offered);
    cmd.AddValue("preambleDetection",
                 "ns-3's threshold preamble detection (its default: 1); 0 locks onto every "
                 "frame, so a collision is received in error (EIFS after it)",
                 preambleDetection);
    cmd.AddValue("beacons",
                 "the AP's beacons every 102.4 ms (ns-3's default: 1); 0: none, the stations "
                 "associate by active probing",
                 beacons);
    cmd.AddValue("vhtBlockAck",
                 "802.11ac: the stations set up a Block Ack agreement with the AP (ns-3.37's "
                 "default: HtFrameExchangeManager::NeedSetupBlockAck is true for any VHT "
                 "device, A-MPDU or not; after a failed frame its retransmission is followed "
                 "by a BlockAckReq); 0: each station's device drops its VhtConfiguration, "
                 "which is all that test reads, once associated (its PPDUs stay VHT S-MPDUs "
                 "of the channel's width)",
                 vhtBlockAck);
    cmd.AddValue("nistErrors",
                 "decode with ns-3's NistErrorRateModel (the curves of wlansim's sinr "
                 "reception) instead of its default TableBasedErrorRateModel",
                 nistErrors);
    cmd.AddValue("counters", "count the frames on the air by kind (a trace)", counters);
    cmd.AddValue("tcp",
                 "K > 0: K TCP uploads and K TCP downloads between 2K stations and a host "
                 "behind the AP (--n is ignored); 0: saturated UDP uplink",
                 tcp);
    cmd.AddValue("apQueue", "packets the AP's MAC queue holds (0: --queue)", apQueue);
    cmd.AddValue("hostRate", "rate of the AP-host link", hostRate);
    cmd.AddValue("hostDelay", "delay of the AP-host link", hostDelay);
    cmd.AddValue("rateManager",
                 "ns-3's WifiRemoteStationManager (ns3::MinstrelHtWifiManager...); the "
                 "default sends at --data and --control",
                 rateManager);
    cmd.AddValue("rss", "every frame received at this power, dBm (0: the log-distance model)", rss);
    // TCP as wlansim models it: NewReno with classic recovery (RFC 6582), no SACK, no
    // timestamps. Set before the command line is read, so `--ns3::TcpSocketBase::Sack=1`
    // and the like override them; the segment size, window and initial window are ns-3's
    // attributes on the command line too (`--ns3::TcpSocket::SegmentSize=1460`...).
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    cmd.Parse(argc, argv);
    if (tcp > 0)
    {
        n = 2 * tcp;
    }

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    Config::SetDefault("ns3::WifiRemoteStationManager::RtsCtsThreshold",
                       UintegerValue(rtsThreshold));
    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(std::to_string(queue) + "p")));

    NodeContainer ap;
    ap.Create(1);
    NodeContainer stas;
    stas.Create(n);

    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    if (rss != 0)
    {
        channel = YansWifiChannelHelper();
        channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
        channel.AddPropagationLoss("ns3::FixedRssLossModel", "Rss", DoubleValue(rss));
    }
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    phy.Set("Antennas", UintegerValue(nss));
    phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(nss));
    phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(nss));
    if (nistErrors)
    {
        phy.SetErrorRateModel("ns3::NistErrorRateModel");
    }
    if (!preambleDetection)
    {
        phy.DisablePreambleDetectionModel();
    }
    const bool band24 = standard == "11b" || standard == "11g" || standard == "11n-2.4";
    g_band = band24 ? WIFI_PHY_BAND_2_4GHZ : WIFI_PHY_BAND_5GHZ;
    if (standard.rfind("11n", 0) == 0 || standard == "11ac")
    {
        std::string band = band24 ? "BAND_2_4GHZ" : "BAND_5GHZ";
        phy.Set("ChannelSettings",
                StringValue("{0, " + std::to_string(width) + ", " + band + ", 0}"));
    }

    WifiHelper wifi;
    wifi.SetStandard(StandardOf(standard));
    if (rateManager == "ns3::ConstantRateWifiManager")
    {
        wifi.SetRemoteStationManager(rateManager,
                                     "DataMode",
                                     StringValue(dataMode),
                                     "ControlMode",
                                     StringValue(controlMode));
    }
    else
    {
        wifi.SetRemoteStationManager(rateManager);
    }

    WifiMacHelper mac;
    Ssid ssid("wlansim");
    // Without beacons the stations associate by probing and never count beacons missed.
    mac.SetType("ns3::StaWifiMac",
                "Ssid",
                SsidValue(ssid),
                "ActiveProbing",
                BooleanValue(!beacons),
                "MaxMissedBeacons",
                UintegerValue(beacons ? 10 : std::numeric_limits<uint32_t>::max()));
    NetDeviceContainer staDevs = wifi.Install(phy, mac, stas);
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid), "BeaconGeneration", BooleanValue(beacons));
    NetDeviceContainer apDev = wifi.Install(phy, mac, ap);
    g_apAddress = Mac48Address::ConvertFrom(apDev.Get(0)->GetAddress());
    if (apQueue > 0)
    {
        DynamicCast<WifiNetDevice>(apDev.Get(0))
            ->GetMac()
            ->GetTxopQueue(AC_BE)
            ->SetMaxSize(QueueSize(std::to_string(apQueue) + "p"));
    }

    if (!vhtBlockAck)
    {
        for (uint32_t i = 0; i < staDevs.GetN(); ++i)
        {
            Ptr<WifiNetDevice> dev = DynamicCast<WifiNetDevice>(staDevs.Get(i));
            dev->GetMac()->TraceConnectWithoutContext("Assoc",
                                                      MakeBoundCallback(&DropVhtConfiguration, dev));
        }
    }
    const bool ht = standard.rfind("11n", 0) == 0 || standard == "11ac";
    if (ht)
    {
        Config::Set("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/HtConfiguration/"
                    "ShortGuardIntervalSupported",
                    BooleanValue(sgi));
        Config::Set("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Mac/BE_MaxAmpduSize",
                    UintegerValue(ampdu));
        Config::Set("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Mac/BE_MaxAmsduSize",
                    UintegerValue(amsdu));
    }

    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0.0, 0.0, 0.0));
    for (uint32_t i = 0; i < n; ++i)
    {
        double a = 2 * M_PI * i / n;
        pos->Add(Vector(0.5 * std::cos(a), 0.5 * std::sin(a), 0.0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(ap);
    mobility.Install(stas);

    NodeContainer host;
    NetDeviceContainer hostLink;
    if (tcp > 0)
    {
        host.Create(1);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue(hostRate));
        p2p.SetChannelAttribute("Delay", StringValue(hostDelay));
        hostLink = p2p.Install(ap.Get(0), host.Get(0));
    }
    InternetStackHelper stack;
    stack.Install(ap);
    stack.Install(stas);
    stack.Install(host);
    Ipv4AddressHelper address;
    address.SetBase("10.1.0.0", "255.255.0.0");
    Ipv4InterfaceContainer apIf = address.Assign(apDev);
    Ipv4InterfaceContainer staIf = address.Assign(staDevs);
    Ipv4InterfaceContainer hostIf;
    if (tcp > 0)
    {
        address.SetBase("10.2.0.0", "255.255.255.0");
        hostIf = address.Assign(hostLink);
        // The MAC queues are the buffers (wlansim's): no queue disc before the Wi-Fi devices.
        TrafficControlHelper tch;
        tch.Uninstall(apDev);
        tch.Uninstall(staDevs);
    }
    // No ARP exchange in the measured window: every entry is known from the start.
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NeighborCacheHelper neighbors;
    neighbors.PopulateNeighborCache();

    for (uint32_t i = 0; tcp > 0 && i < tcp; ++i)
    {
        // Upload i: station i to the host; download i: the host to station tcp + i; each
        // starts at its own time, uploads first.
        const std::string flows[] = {"up" + std::to_string(i), "down" + std::to_string(i)};
        const uint16_t ports[] = {static_cast<uint16_t>(1000 + i), static_cast<uint16_t>(2000 + i)};
        const Ptr<Node> senders[] = {stas.Get(i), host.Get(0)};
        const Ptr<Node> receivers[] = {host.Get(0), stas.Get(tcp + i)};
        const Ipv4Address to[] = {hostIf.GetAddress(1), staIf.GetAddress(tcp + i)};
        const double start[] = {0.5 + 0.01 * i, 0.5 + 0.01 * (tcp + i)};
        for (int f = 0; f < 2; ++f)
        {
            PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                        InetSocketAddress(Ipv4Address::GetAny(), ports[f]));
            Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkHelper.Install(receivers[f]).Get(0));
            sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&FlowReceived, flows[f]));
            BulkSendHelper send("ns3::TcpSocketFactory", InetSocketAddress(to[f], ports[f]));
            ApplicationContainer app = send.Install(senders[f]);
            app.Start(Seconds(start[f]));
            if (counters)
            {
                // The sender's socket exists once its application started; the
                // receiver's connection once accepted (long before the warm-up ends).
                Simulator::Schedule(Seconds(start[f]) + MicroSeconds(1),
                                    &TraceSender,
                                    flows[f],
                                    DynamicCast<BulkSendApplication>(app.Get(0)));
                Simulator::Schedule(Seconds(warmup), &TraceReceiver, flows[f], sink);
            }
        }
    }
    if (tcp > 0 && counters)
    {
        // Names for the per-node counters, the AP's queue traced and sampled.
        NetDeviceContainer named(apDev, staDevs);
        for (uint32_t i = 0; i < named.GetN(); ++i)
        {
            const uint32_t sta = i - 1; // the AP first
            const std::string name = i == 0  ? std::string("ap")
                                     : sta < tcp ? "u" + std::to_string(sta)
                                                 : "d" + std::to_string(sta - tcp);
            Ptr<WifiNetDevice> dev = DynamicCast<WifiNetDevice>(named.Get(i));
            g_label[Mac48Address::ConvertFrom(dev->GetAddress())] = name;
            if (i > 0)
            {
                g_ipLabel[staIf.GetAddress(sta)] = name;
            }
            dev->GetMac()->TraceConnectWithoutContext("DroppedMpdu",
                                                      MakeBoundCallback(&MacDropped, name));
            dev->GetNode()->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
                "TcDrop", MakeBoundCallback(&TcDropped, name));
        }
        g_apQueue = DynamicCast<WifiNetDevice>(apDev.Get(0))->GetMac()->GetTxopQueue(AC_BE);
        Simulator::Schedule(Seconds(warmup), &Sample);
    }

    uint16_t port = 9;
    PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(ap.Get(0));
    sinkApp.Start(Seconds(0.0));
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&Received));

    // Each station offers `offered` bits/s: above what it gets (saturated), but not so far
    // above that ns-3 spends its time making packets the full queue drops.
    OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(apIf.GetAddress(0), port));
    onoff.SetAttribute("OnTime", StringValue("ns3::ConstantRandomVariable[Constant=1]"));
    onoff.SetAttribute("OffTime", StringValue("ns3::ConstantRandomVariable[Constant=0]"));
    onoff.SetAttribute("PacketSize", UintegerValue(payload));
    onoff.SetAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(offered))));
    for (uint32_t i = 0; tcp == 0 && i < n; ++i)
    {
        ApplicationContainer app = onoff.Install(stas.Get(i));
        app.Start(Seconds(0.5 + 0.001 * i));
    }

    if (counters)
    {
        Config::ConnectWithoutContext(
            "/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy/PhyTxPsduBegin",
            MakeCallback(&Transmitted));
    }
    Simulator::Schedule(Seconds(warmup), &StartMeasuring);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    CloseGroup();
    if (counters)
    {
        // The interframe times a station's PHY ended the run with (EIFS = SIFS + this ACK
        // time + DIFS: ns-3's ChannelAccessManager).
        Ptr<WifiPhy> p = DynamicCast<WifiNetDevice>(staDevs.Get(0))->GetPhy();
        std::cout << "phy_sifs_ns " << p->GetSifs().GetNanoSeconds() << "\n"
                  << "phy_slot_ns " << p->GetSlot().GetNanoSeconds() << "\n"
                  << "phy_ack_tx_ns " << p->GetAckTxTime().GetNanoSeconds() << "\n";
    }
    uint64_t total = 0;
    for (const auto& [sta, bytes] : g_rx)
    {
        total += bytes;
        std::cout << "sta " << sta << " rx_bytes " << bytes << "\n";
    }
    for (const auto& [flow, bytes] : g_flowRx)
    {
        total += bytes;
        std::cout << "flow " << flow << " rx_bytes " << bytes << "\n";
    }
    for (const auto& [kind, count] : g_tx)
    {
        std::cout << kind << " " << count << "\n";
    }
    std::cout << "rx_bytes " << total << "\n";
    std::cout << "window_s " << duration - warmup << "\n";
    Simulator::Destroy();
    return 0;
}
