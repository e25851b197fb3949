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
// (`tx_data_mcsM_psdus`), their MPDUs (`tx_data_mcsM_mpdus`) and airtime (`tx_data_mcsM_ns`).
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
std::vector<std::string> g_group;
Time g_groupStart = Seconds(-1);

// Close the group of frames that started together: a group of two or more is a collision
// (`tx_collisions`), each of its frames counts as collided (`tx_rts_collided`...).
void
CloseGroup()
{
    if (g_group.size() > 1)
    {
        g_tx["tx_collisions"] += 1;
        for (const auto& kind : g_group)
        {
            g_tx[kind + "_collided"] += 1;
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
        g_group.emplace_back(kind);
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
        const uint16_t up = 1000 + i;
        const uint16_t down = 2000 + i;
        PacketSinkHelper upSink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), up));
        ApplicationContainer s = upSink.Install(host.Get(0));
        s.Get(0)->TraceConnectWithoutContext(
            "Rx", MakeBoundCallback(&FlowReceived, "up" + std::to_string(i)));
        PacketSinkHelper downSink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), down));
        s = downSink.Install(stas.Get(tcp + i));
        s.Get(0)->TraceConnectWithoutContext(
            "Rx", MakeBoundCallback(&FlowReceived, "down" + std::to_string(i)));
        BulkSendHelper upSend("ns3::TcpSocketFactory", InetSocketAddress(hostIf.GetAddress(1), up));

        upSend.Install(stas.Get(i)).Start(Seconds(0.5 + 0.01 * i));
        BulkSendHelper downSend("ns3::TcpSocketFactory",
                                InetSocketAddress(staIf.GetAddress(tcp + i), down));

        downSend.Install(host.Get(0)).Start(Seconds(0.5 + 0.01 * (tcp + i)));
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
