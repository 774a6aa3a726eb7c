/**
 * Packet captures in and out of nicsim.
 *
 * <h2>Reading</h2>
 * {@link dev.nicsim.traces.CaptureReader} frames pcap (both byte orders, microsecond and nanosecond
 * resolution) and pcapng (SHB/IDB/EPB/SPB/PB with per-interface link type and timestamp
 * resolution) files. {@link dev.nicsim.traces.RoceDecoder} decodes one frame of link type Ethernet
 * (with or without 802.1Q/802.1ad tags) or ERF-encapsulated native InfiniBand into a reused
 * {@link dev.nicsim.traces.RocePacket}: RoCEv2 over IPv4/IPv6 (UDP destination port 4791, any
 * source port), RoCEv1 (EtherType 0x8915), native IB (LRH, optional GRH), BTH and its extension
 * headers (RETH, AETH, DETH, ImmDt, ...), PFC and 802.3x pause frames, and checks the ICRC
 * ({@link dev.nicsim.traces.Icrc}). {@link dev.nicsim.traces.CaptureDecoder} runs the two over a
 * file, puts each interface's packets in timestamp order within a bounded reorder window (as
 * Wireshark's {@code reordercap} sorts), counts everything in {@link dev.nicsim.traces.CaptureStats}
 * and turns bad input into a one-line {@link dev.nicsim.traces.CaptureException}.
 *
 * <h2>Events</h2>
 * {@link dev.nicsim.traces.PccEventDeriver} turns decoded packets into the PCC event stream a
 * requester NIC would have seen (TX_BURST, ACK, NACK, CNP, RTT_RESPONSE; the PCC contract of
 * {@link dev.nicsim.pcc}, after NVIDIA's DOCA PCC device model), written as {@link dev.nicsim.pcc.PccEvent} records to a
 * {@link dev.nicsim.traces.PccEventSink}.
 *
 * <h2>Writing</h2>
 * {@link dev.nicsim.traces.PcapWriter} writes classic pcap with Ethernet + IPv4 + UDP 4791 RoCEv2
 * frames (valid IPv4 header checksum and ICRC) and PFC pause frames from plain field values.
 *
 * <p>The code follows the InfiniBand Architecture Specification (IBTA) Vol. 1 for the transport
 * headers and the ICRC (§9.2 BTH, §9.3 extension headers, §7.8.1 ICRC), IBTA Annex A16/A17 for
 * RoCEv1/RoCEv2, the pcap (draft-ietf-opsawg-pcap) and pcapng (draft-ietf-opsawg-pcapng) file
 * formats, the Endace ERF record format (type 21 InfiniBand) and IEEE 802.1Qbb for PFC.
 */
package dev.nicsim.traces;
