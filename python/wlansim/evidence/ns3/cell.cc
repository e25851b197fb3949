// An infrastructure BSS for ns-3.37 (Debian's libns3-dev), written by wlansim to compare
// its own cells with ns-3's (`wlansim validate ns3`). Every choice that matters is a
// command-line argument, so one compiled binary runs every case: the standard, the data
// and control modes, channel width, guard interval, spatial streams, RTS/CTS, A-MPDU and
// A-MSDU sizes, the stations and the load. The stations stand 1 m from the AP on a
// circle (every frame arrives at every node with the same power, so two frames that
// overlap destroy each other, as in wlansim's reception model "none").
//
// Saturated UDP uplink: each station's OnOffApplication offers more than the cell carries;
// the AP's PacketSink counts the bytes received between the warm-up and the end, and the
// program prints `rx_bytes N`, `window_s W`, and per station `sta I rx_bytes N` lines.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"

#include <cmath>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{
std::map<uint32_t, uint64_t> g_rx;  // bytes per sending station, after the warm-up
bool g_measuring = false;

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
    cmd.Parse(argc, argv);

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
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    phy.Set("Antennas", UintegerValue(nss));
    phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(nss));
    phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(nss));
    const bool band24 = standard == "11b" || standard == "11g" || standard == "11n-2.4";
    if (standard.rfind("11n", 0) == 0 || standard == "11ac")
    {
        std::string band = band24 ? "BAND_2_4GHZ" : "BAND_5GHZ";
        phy.Set("ChannelSettings",
                StringValue("{0, " + std::to_string(width) + ", " + band + ", 0}"));
    }

    WifiHelper wifi;
    wifi.SetStandard(StandardOf(standard));
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                 "DataMode",
                                 StringValue(dataMode),
                                 "ControlMode",
                                 StringValue(controlMode));

    WifiMacHelper mac;
    Ssid ssid("wlansim");
    mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid), "ActiveProbing", BooleanValue(false));
    NetDeviceContainer staDevs = wifi.Install(phy, mac, stas);
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer apDev = wifi.Install(phy, mac, ap);

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
        pos->Add(Vector(std::cos(a), std::sin(a), 0.0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(ap);
    mobility.Install(stas);

    InternetStackHelper stack;
    stack.Install(ap);
    stack.Install(stas);
    Ipv4AddressHelper address;
    address.SetBase("10.1.0.0", "255.255.0.0");
    Ipv4InterfaceContainer apIf = address.Assign(apDev);
    address.Assign(staDevs);
    // No ARP exchange in the measured window: every entry is known from the start.
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NeighborCacheHelper neighbors;
    neighbors.PopulateNeighborCache();

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
    for (uint32_t i = 0; i < n; ++i)
    {
        ApplicationContainer app = onoff.Install(stas.Get(i));
        app.Start(Seconds(0.5 + 0.001 * i));
    }

    Simulator::Schedule(Seconds(warmup), &StartMeasuring);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    uint64_t total = 0;
    for (const auto& [sta, bytes] : g_rx)
    {
        total += bytes;
        std::cout << "sta " << sta << " rx_bytes " << bytes << "\n";
    }
    std::cout << "rx_bytes " << total << "\n";
    std::cout << "window_s " << duration - warmup << "\n";
    Simulator::Destroy();
    return 0;
}
