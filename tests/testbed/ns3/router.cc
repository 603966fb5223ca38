/* ns3-router: the testbed's bottleneck as an ns-3 real-time router between two
 * network namespaces, for what this kernel's qdiscs cannot do (propagation
 * delay without netem; RED, CoDel, FqCoDel and PIE without those qdiscs).
 *
 *   namespace A (router r)                               namespace B (receiver rx)
 *   tap 10.0.4.1 <-> [node a 10.0.4.2]==p2p==[node b 10.0.3.1] <-> tap 10.0.3.2
 *                              10.0.5.1   10.0.5.2
 *
 * The tap of each side is created inside its namespace (setns, then
 * /dev/net/tun with IFF_TAP|IFF_NO_PI) and handed to an FdNetDevice.  The two
 * nodes are joined by a point-to-point link of --rate and --delay (one way)
 * whose egresses both hold the queue disc of --aqm; the device's own queue
 * under it is one packet, so the queue disc is the only queue.  The Linux
 * side (addresses of the taps, routes) is set up by netbed.sh once this
 * program has printed "ready".
 *
 * Signals: SIGUSR1 writes the counters to --stats FILE (JSON, replaced
 * atomically; "seq" counts the writes): the bottleneck queue disc's packets,
 * drops and ECN marks in each direction, packets dropped anywhere else (by a
 * device or an IP layer: none expected), and how late the real-time scheduler
 * ran since the previous write (a probe event every --probe-ms: the wall
 * clock minus the simulation clock when it runs).  SIGUSR2 switches the
 * link's rate, both ways, between --rate and --rate-low (with --rate-low;
 * within --probe-ms): a path whose capacity drops and comes back.  SIGTERM
 * or SIGINT writes them once more and ends the program (the taps go with
 * it).
 *
 * Build (tests/meson.build does this where libns3-dev is installed):
 *   g++ -std=c++17 -O2 router.cc -o ns3-router -Wl,--no-as-needed -lns3-core \
 *     -lns3-network -lns3-internet -lns3-point-to-point -lns3-traffic-control \
 *     -lns3-fd-net-device
 */

#include "ns3/core-module.h"
#include "ns3/fd-net-device-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

volatile std::sig_atomic_t g_dump = 0;
volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_switch = 0;

/* Packets dropped anywhere but in the queue discs: by a device (its queue,
 * a transmission or reception it refused) or by the IP layer of a node (no
 * route, bad checksum, TTL).  None is expected; they are reported so that
 * none goes unseen. */
uint64_t g_deviceDrops = 0;
uint64_t g_ipDrops = 0;

void
CountDeviceDrop(uint64_t* n, Ptr<const Packet>)
{
    ++*n;
}

void
CountIpDrop(const Ipv4Header&, Ptr<const Packet>, Ipv4L3Protocol::DropReason, Ptr<Ipv4>,
            uint32_t)
{
    ++g_ipDrops;
}

void
WatchDrops(Ptr<NetDevice> dev)
{
    for (const char* trace : {"MacTxDrop", "MacRxDrop", "PhyTxDrop", "PhyRxDrop"})
        dev->TraceConnectWithoutContext(trace, MakeBoundCallback(&CountDeviceDrop, &g_deviceDrops));
}

void
OnSignal(int sig)
{
    if (sig == SIGUSR1)
        g_dump = 1;
    else if (sig == SIGUSR2)
        g_switch = 1;
    else
        g_stop = 1;
}

[[noreturn]] void
Die(const std::string& what)
{
    std::fprintf(stderr, "ns3-router: %s\n", what.c_str());
    std::exit(1);
}

/* A tap device named `name` inside the namespace whose file is `nsPath`
 * (/var/run/netns/NAME); returns its file descriptor.  The calling thread
 * goes back to its own namespace. */
int
OpenTapIn(const std::string& nsPath, const std::string& name)
{
    int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    int target = open(nsPath.c_str(), O_RDONLY | O_CLOEXEC);
    if (self < 0 || target < 0)
        Die("cannot open namespace " + nsPath + ": " + std::strerror(errno));
    if (setns(target, CLONE_NEWNET) != 0)
        Die("setns " + nsPath + ": " + std::strerror(errno));
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        Die(std::string("/dev/net/tun: ") + std::strerror(errno));
    struct ifreq ifr;
    std::memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) != 0)
        Die("TUNSETIFF " + name + ": " + std::strerror(errno));
    if (setns(self, CLONE_NEWNET) != 0)
        Die(std::string("setns back: ") + std::strerror(errno));
    close(self);
    close(target);
    return fd;
}

struct Options
{
    std::string nsA, nsB, tapA = "ns3-r", tapB = "ns3-rx", aqm = "pfifo", statsPath;
    double rateBps = 10e6;
    double rateLowBps = 0;
    double delayMs = 0;
    uint32_t queue = 13;
    uint32_t mtu = 1500;
    double probeMs = 5;
};

/* The queue disc of --aqm.  RED takes the 000 paper's parameters (thresholds
 * 5 and 15 packets, weight 0.002, 1/linterm 0.1, not gentle); the others the
 * Linux defaults of the qdisc of the same name (ECN on for fq_codel, off for
 * codel and pie); --queue is every kind's packet limit. */
TrafficControlHelper
QueueDiscFor(const Options& o)
{
    TrafficControlHelper tch;
    StringValue limit(std::to_string(o.queue) + "p");
    if (o.aqm == "pfifo")
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", limit);
    else if (o.aqm == "red" || o.aqm == "red-ecn")
        tch.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", limit, "MinTh", DoubleValue(5),
                             "MaxTh", DoubleValue(15), "QW", DoubleValue(0.002), "LInterm",
                             DoubleValue(10), "Gentle", BooleanValue(false), "MeanPktSize",
                             UintegerValue(1000), "UseEcn", BooleanValue(o.aqm == "red-ecn"),
                             "LinkBandwidth", DataRateValue(DataRate(uint64_t(o.rateBps))),
                             "LinkDelay", TimeValue(MilliSeconds(o.delayMs)));
    else if (o.aqm == "codel")
        tch.SetRootQueueDisc("ns3::CoDelQueueDisc", "MaxSize", limit);
    else if (o.aqm == "fq_codel")
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize", limit, "UseEcn",
                             BooleanValue(true));
    else if (o.aqm == "pie")
        tch.SetRootQueueDisc("ns3::PieQueueDisc", "MaxSize", limit);
    else
        Die("unknown --aqm " + o.aqm);
    return tch;
}

/* Lateness of the real-time scheduler: a probe every probeMs records how far
 * the wall clock is ahead of the simulation clock when the probe runs. */
class Monitor
{
  public:
    Monitor(Time every, Ptr<QueueDisc> down, Ptr<QueueDisc> up, std::string path, Options o,
            NetDeviceContainer link)
        : m_every(every),
          m_down(down),
          m_up(up),
          m_link(link),
          m_path(std::move(path)),
          m_opt(std::move(o))
    {
        m_impl = DynamicCast<RealtimeSimulatorImpl>(Simulator::GetImplementation());
    }

    void Run()
    {
        if (m_impl)
            m_lateUs.push_back((m_impl->RealtimeNow() - Simulator::Now()).GetMicroSeconds());
        if (g_switch)
        {
            g_switch = 0;
            Switch();
        }
        if (g_dump)
        {
            g_dump = 0;
            Write();
        }
        if (g_stop)
        {
            Write();
            Simulator::Stop();
            return;
        }
        Simulator::Schedule(m_every, &Monitor::Run, this);
    }

  private:
    /* The link's rate, both ways, to --rate-low or back to --rate. */
    void Switch()
    {
        if (m_opt.rateLowBps <= 0)
            return;
        m_low = !m_low;
        double bps = m_low ? m_opt.rateLowBps : m_opt.rateBps;
        for (uint32_t i = 0; i < m_link.GetN(); i++)
            m_link.Get(i)->SetAttribute("DataRate", DataRateValue(DataRate(uint64_t(bps))));
        m_switches++;
    }

    static void Disc(FILE* f, const char* name, Ptr<QueueDisc> q)
    {
        const QueueDisc::Stats& s = q->GetStats();
        std::fprintf(f,
                     "\"%s\": {\"packets\": %u, \"bytes\": %llu, \"drops\": %u, \"marks\": %u, "
                     "\"backlog\": %u}",
                     name, s.nTotalReceivedPackets, (unsigned long long)s.nTotalReceivedBytes,
                     s.nTotalDroppedPackets, s.nTotalMarkedPackets, q->GetNPackets());
    }

    void Write()
    {
        if (m_path.empty())
            return;
        std::vector<int64_t> v(m_lateUs);
        m_lateUs.clear();
        std::sort(v.begin(), v.end());
        auto q = [&v](double p) -> double {
            return v.empty() ? 0.0 : v[std::min(v.size() - 1, size_t(p * v.size()))] / 1e3;
        };
        size_t over1 = v.end() - std::upper_bound(v.begin(), v.end(), int64_t(1000));
        std::string tmp = m_path + ".tmp";
        FILE* f = std::fopen(tmp.c_str(), "w");
        if (!f)
            Die("cannot write " + tmp + ": " + std::strerror(errno));
        std::fprintf(f,
                     "{\"seq\": %u, \"sim_s\": %.3f, \"aqm\": \"%s\", \"queue\": %u, "
                     "\"rate_bps\": %.0f, \"rate_now_bps\": %.0f, \"rate_switches\": %u, "
                     "\"delay_ms\": %g, ",
                     ++m_seq, Simulator::Now().GetSeconds(), m_opt.aqm.c_str(), m_opt.queue,
                     m_opt.rateBps, m_low ? m_opt.rateLowBps : m_opt.rateBps, m_switches,
                     m_opt.delayMs);
        Disc(f, "down", m_down);
        std::fprintf(f, ", ");
        Disc(f, "up", m_up);
        std::fprintf(f,
                     ", \"device_drops\": %llu, \"ip_drops\": %llu, \"late\": {\"probes\": %zu, "
                     "\"p50_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f, \"over_1ms\": %zu}}\n",
                     (unsigned long long)g_deviceDrops, (unsigned long long)g_ipDrops, v.size(),
                     q(0.5), q(0.99), v.empty() ? 0.0 : v.back() / 1e3, over1);
        std::fclose(f);
        if (std::rename(tmp.c_str(), m_path.c_str()) != 0)
            Die("cannot rename " + tmp + ": " + std::strerror(errno));
    }

    Time m_every;
    Ptr<QueueDisc> m_down, m_up;
    NetDeviceContainer m_link;
    bool m_low = false;
    uint32_t m_switches = 0;
    std::string m_path;
    Options m_opt;
    Ptr<RealtimeSimulatorImpl> m_impl;
    std::vector<int64_t> m_lateUs;
    uint32_t m_seq = 0;
};

Ptr<FdNetDevice>
TapDevice(Ptr<Node> node, int fd, const char* mac, uint32_t mtu)
{
    Ptr<FdNetDevice> dev = CreateObject<FdNetDevice>();
    dev->SetAddress(Mac48Address(mac));
    dev->SetMtu(mtu);
    dev->SetFileDescriptor(fd);
    node->AddDevice(dev);
    return dev;
}

void
AssignAddress(Ptr<Node> node, Ptr<NetDevice> dev, const char* addr)
{
    Ptr<Ipv4> ip = node->GetObject<Ipv4>();
    int32_t i = ip->AddInterface(dev);
    ip->AddAddress(i, Ipv4InterfaceAddress(Ipv4Address(addr), Ipv4Mask("255.255.255.0")));
    ip->SetMetric(i, 1);
    ip->SetUp(i);
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    cmd.AddValue("ns-a", "namespace file of side A (the router), e.g. /var/run/netns/x-r", o.nsA);
    cmd.AddValue("ns-b", "namespace file of side B (the receiver)", o.nsB);
    cmd.AddValue("tap-a", "tap device name in side A", o.tapA);
    cmd.AddValue("tap-b", "tap device name in side B", o.tapB);
    cmd.AddValue("rate", "bottleneck rate, bit/s", o.rateBps);
    cmd.AddValue("rate-low", "the rate SIGUSR2 switches to and back from, bit/s (0: none)",
                 o.rateLowBps);
    cmd.AddValue("delay", "one-way propagation delay of the link, ms", o.delayMs);
    cmd.AddValue("aqm", "pfifo | red | red-ecn | codel | fq_codel | pie", o.aqm);
    cmd.AddValue("queue", "queue disc limit, packets", o.queue);
    cmd.AddValue("mtu", "MTU of every device", o.mtu);
    cmd.AddValue("stats", "file for the counters (SIGUSR1, and at the end)", o.statsPath);
    cmd.AddValue("probe-ms", "interval of the lateness probe, ms", o.probeMs);
    cmd.Parse(argc, argv);
    if (o.nsA.empty() || o.nsB.empty())
        Die("--ns-a and --ns-b are required");
    if (o.queue < 1 || o.rateBps <= 0 || o.rateLowBps < 0 || o.delayMs < 0 || o.probeMs <= 0)
        Die("--queue, --rate, --rate-low, --delay or --probe-ms out of range");

    std::signal(SIGUSR1, OnSignal);
    std::signal(SIGUSR2, OnSignal);
    std::signal(SIGTERM, OnSignal);
    std::signal(SIGINT, OnSignal);

    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
    Config::SetDefault("ns3::RealtimeSimulatorImpl::SynchronizationMode",
                       StringValue("BestEffort"));
    /* Forwarded packets need real IP checksums, or Linux drops them all. */
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));

    int fdA = OpenTapIn(o.nsA, o.tapA);
    int fdB = OpenTapIn(o.nsB, o.tapB);

    NodeContainer nodes;
    nodes.Create(2);
    Ptr<Node> a = nodes.Get(0), b = nodes.Get(1);
    InternetStackHelper internet;
    internet.Install(nodes);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(o.rateBps))));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(o.mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(int64_t(o.delayMs * 1000))));
    /* The device's own queue would add up to 100 packets under the queue disc. */
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer link = p2p.Install(a, b);
    /* Before any address: otherwise ns-3 puts its default FqCoDel there. */
    QueueDiscContainer discs = QueueDiscFor(o).Install(link);

    Ptr<FdNetDevice> devA = TapDevice(a, fdA, "02:00:0a:00:04:02", o.mtu);
    Ptr<FdNetDevice> devB = TapDevice(b, fdB, "02:00:0a:00:03:01", o.mtu);
    AssignAddress(a, devA, "10.0.4.2");
    AssignAddress(a, link.Get(0), "10.0.5.1");
    AssignAddress(b, link.Get(1), "10.0.5.2");
    AssignAddress(b, devB, "10.0.3.1");

    Ipv4StaticRoutingHelper rh;
    Ptr<Ipv4StaticRouting> ra = rh.GetStaticRouting(a->GetObject<Ipv4>());
    Ptr<Ipv4StaticRouting> rb = rh.GetStaticRouting(b->GetObject<Ipv4>());
    /* a: the receiver's net over the link, everything else back to the router */
    ra->AddNetworkRouteTo(Ipv4Address("10.0.3.0"), Ipv4Mask("255.255.255.0"),
                          Ipv4Address("10.0.5.2"), a->GetObject<Ipv4>()->GetInterfaceForDevice(
                                                       link.Get(0)));
    ra->SetDefaultRoute(Ipv4Address("10.0.4.1"),
                        a->GetObject<Ipv4>()->GetInterfaceForDevice(devA));
    rb->SetDefaultRoute(Ipv4Address("10.0.5.1"),
                        b->GetObject<Ipv4>()->GetInterfaceForDevice(link.Get(1)));

    for (Ptr<NetDevice> dev : {Ptr<NetDevice>(devA), Ptr<NetDevice>(devB), link.Get(0), link.Get(1)})
        WatchDrops(dev);
    for (Ptr<Node> node : {a, b})
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("Drop",
                                                                      MakeCallback(&CountIpDrop));

    /* Only the link has a queue disc; say so if ns-3 put one anywhere else. */
    Ptr<TrafficControlLayer> tcA = a->GetObject<TrafficControlLayer>();
    Ptr<TrafficControlLayer> tcB = b->GetObject<TrafficControlLayer>();
    if (tcA->GetRootQueueDiscOnDevice(devA) || tcB->GetRootQueueDiscOnDevice(devB))
        Die("a queue disc was installed on a tap device");

    Monitor probe(MicroSeconds(int64_t(o.probeMs * 1000)), discs.Get(0), discs.Get(1),
                o.statsPath, o, link);
    Simulator::ScheduleNow(&Monitor::Run, &probe);
    Simulator::ScheduleNow([]() {
        std::printf("ready\n");
        std::fflush(stdout);
    });
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
