package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.Hart;

import java.nio.file.Path;
import java.util.Locale;

import static dev.nicsim.microcode.firmware.FirmwareLayout.*;

/**
 * A DOCA PCC notification-point (NP) program ({@code firmware.np: NP.elf}): an ELF that defines
 * {@code doca_pcc_dev_np_user_packet_handler} (DOCA PCC fact sheet, Addendum A.7), run on the
 * receiving NIC's DPA model for every RTT probe request that arrives there, in place of the NIC's
 * hardware responder. Its 12 response bytes become the requester's RTT raw data.
 *
 * <p>Each NIC gets its own firmware memory ({@link #forNic}, a separate DPA process, as
 * {@code doca_pcc_np_create} makes one), built and initialised on the NIC's first probe. Before that
 * first probe the port state is written and, when the ELF defines it,
 * {@code doca_pcc_dev_user_port_info_changed(0)} runs (Addendum A.6: after init, before the first NP
 * packet). Each probe is written into thread 0's row of {@code nicsim_pcc_np_packets} as
 * firmware/ABI.md section 9 lays it out (Ethernet, IPv4, UDP, a 24-byte MAD header of zeros, then the
 * 4-byte payload holding the requester's send timestamp, big-endian: 70 bytes), and
 * {@code nicsim_pcc_event_entry} runs with control {@code call} = 5 on a solo hart of the machine
 * model, to completion or until abandoned, exactly like a reaction-point handler: cycle-counted
 * (memory stalls included), with the same instruction budget, and faults and budget overruns
 * contained and counted ({@link #faults()}, {@link #budgetExceeded()}, the earliest one kept:
 * {@link #firstFault()}).
 *
 * <p>Model choices (docs/doca-pcc.md): every probe runs on hardware thread 0 of the NP process, one
 * at a time, and its handler starts the moment the probe has arrived; NP calls do not share a
 * pipeline with the NIC's reaction-point handlers (on a DPA the NP and RP processes may share cores).
 *
 * <p>Thread-safety: each NIC's instance ({@link #forNic}) is driven by one thread; the shared
 * counts (calls, failed) are updated under this object's lock and the fault record
 * ({@link FirmwareFaultLog}) under its own, since a partitioned run ({@code nicsim run --partitions N})
 * drives the NICs of different partitions from different threads: the counts are exact, and
 * {@link #firstFault()} is the earliest fault by (simulated time, host index), whichever thread
 * recorded it first, so it depends on N only.
 */
public final class FirmwareNotificationPoint extends FirmwareProgram {
    /** {@link Nic#handle} outcome: the handler returned {@code DOCA_PCC_DEV_STATUS_OK}. */
    public static final int OK = 0;
    /** Outcome: the handler returned another value ({@code DOCA_PCC_DEV_STATUS_FAIL}). */
    public static final int FAILED = 1;
    /** Outcome: the call trapped and was abandoned. */
    public static final int FAULT = 2;
    /** Outcome: the call exceeded the instruction budget and was abandoned. */
    public static final int BUDGET = 3;

    /** Bytes of the request nicsim builds: Ethernet 14 + IPv4 20 + UDP 8 + MAD header 24 + payload 4. */
    public static final int REQUEST_BYTES = 70;
    /** Bytes of the response data ({@code out->size}). */
    public static final int RESPONSE_BYTES = 12;
    /** Offset of the UDP header in the request (ABI.md section 9, {@code NICSIM_NP_L4_OFFSET}). */
    static final int L4_OFFSET = 34;
    /** IFA2 probes: offset of the IFA header (after Ethernet and IPv4). */
    static final int IFA2_HEADER_OFFSET = 34;
    /** IFA2 probes: offset of the UDP header, after the 4-byte IFA header (Addendum B.2). */
    static final int IFA2_L4_OFFSET = 38;
    /** IFA2 probes: offset of the metadata header, 8 bytes after the UDP header (Addendum B.1/B.2). */
    static final int IFA2_METADATA_OFFSET = 46;
    /** IFA2 probes: offset of the newest per-hop record. */
    static final int IFA2_RECORDS_OFFSET = 50;
    /** Most IFA2 records a probe carries (the switches' Max Length, 40 four-octet units). */
    public static final int IFA2_MAX_RECORDS = 5;
    /** IFA2 probes: the IP protocol number nicsim gives the IFA header (253, RFC 3692 experimental; Addendum B.10). */
    public static final int IFA2_IP_PROTOCOL = 253;
    /** Bytes of the longest request: an IFA2 probe with {@link #IFA2_MAX_RECORDS} records. */
    public static final int MAX_REQUEST_BYTES = REQUEST_BYTES + 8 + 32 * 5;
    /** Offset of the payload in the request ({@code NICSIM_NP_PAYLOAD_OFFSET}). */
    static final int PAYLOAD_OFFSET = 66;
    /** Row bytes of {@code nicsim_pcc_np_packets}. */
    static final int PACKET_ROW_BYTES = 128;
    /** The runtime's packet buffer symbol. */
    static final String NP_PACKETS = "nicsim_pcc_np_packets";
    /** RoCEv2's UDP destination port (IBTA Annex A17). */
    static final int ROCE_V2_UDP_PORT = 4791;
    /** The hardware thread every NP call runs on. */
    private static final int RANK = 0;

    private final long maxInstructions;
    private long calls;
    private long failed;
    private long ifa2Probes;
    private long ifa2ProbesWithRecords;
    private int ifa2MaxRecords;
    private long mailboxSent;
    private long mailboxFailed;
    private byte[] hostMailbox;

    private FirmwareNotificationPoint(final FirmwareImage image, final CycleModel model, final long maxInstructions) {
        super(image, model, maxInstructions, "firmware np: ");
        this.maxInstructions = maxInstructions;
        // a trial load: the image fits, its init runs, its packet buffer is where the runtime puts it
        final FirmwareNic trial = new FirmwareNic(image, model, null, FirmwareProvider.INIT_MAX_INSTRUCTIONS, line -> { });
        if (image.symbol(NP_PACKETS) < 0) {
            throw new FirmwareException(image.path() + ": no " + NP_PACKETS + " (not linked with the nicsim firmware runtime,"
                + " firmware/ABI.md section 9)");
        }
        trial.memory.load(image.symbol(NP_PACKETS), 8);
    }

    /**
     * Loads an NP program and runs its init once (a trial).
     *
     * @param elf             the file
     * @param maxInstructions instruction budget of one handler call, at least 1
     * @param model           the DPA's machine model ({@code bf3-dpa}, {@code e31}, {@code ibex} or a model file's)
     * @return the program
     * @throws FirmwareException        one line: not a RISC-V ELF of the runtime's ABI, no
     *                                  {@code doca_pcc_dev_np_user_packet_handler}, or its init faults
     * @throws IllegalArgumentException if the budget is below 1
     */
    public static FirmwareNotificationPoint load(final Path elf, final long maxInstructions, final CycleModel model) {
        if (maxInstructions < 1) {
            throw new IllegalArgumentException("maxInstructions must be >= 1, got " + maxInstructions);
        }
        final FirmwareImage image = FirmwareImage.load(elf);
        if (!image.hasNpHandler()) {
            throw new FirmwareException(elf + ": no " + NP_HANDLER + ": not a notification-point program"
                + (image.hasUserAlgo() ? " (it defines " + USER_ALGO + ": a reaction-point algorithm, for algorithm.firmware)" : ""));
        }
        return new FirmwareNotificationPoint(image, model, maxInstructions);
    }

    /** @return instruction budget of one call */
    public long maxInstructions() {
        return maxInstructions;
    }

    /** @return handler calls so far, over every NIC (port-info calls not included) */
    public synchronized long calls() {
        return calls;
    }

    /** @return handler calls that returned FAIL */
    public synchronized long failed() {
        return failed;
    }

    /** @return probes handed to the handler that carried an IFA2 header (with or without records) */
    public synchronized long ifa2Probes() {
        return ifa2Probes;
    }

    /** @return probes handed to the handler that carried at least one IFA2 per-hop record */
    public synchronized long ifa2ProbesWithRecords() {
        return ifa2ProbesWithRecords;
    }

    /** @return the most IFA2 per-hop records one probe carried, 0 when none did */
    public synchronized int ifa2MaxRecords() {
        return ifa2MaxRecords;
    }

    /** @return host mailbox messages delivered to NP processes ({@link #hostMailbox(byte[])}) */
    public synchronized long mailboxSent() {
        return mailboxSent;
    }

    /** @return of those, the ones whose callback returned non-zero or was abandoned (the host treats both as errors) */
    public synchronized long mailboxFailed() {
        return mailboxFailed;
    }

    /**
     * Sets the message the NP host application sends to each NP process after {@code doca_pcc_start}
     * ({@code doca_pcc_mailbox_send}, Addendum A.5/B.1): every NIC's NP process receives it in
     * {@code doca_pcc_dev_user_mailbox_handle} once, when the process starts (on its first probe, after the
     * port-info call, before the handler), with a maximum response size of 0. Not thread-safe: set it
     * before the run.
     *
     * @param request the request bytes, at most {@link FirmwareLayout#HOST_MAILBOX_BYTES}; null for none
     * @throws IllegalArgumentException when too long
     * @throws IllegalStateException    when the ELF defines no {@code doca_pcc_dev_user_mailbox_handle}
     */
    public void hostMailbox(final byte[] request) {
        if (request != null && request.length > HOST_MAILBOX_BYTES) {
            throw new IllegalArgumentException("NP mailbox request of " + request.length + " bytes; at most " + HOST_MAILBOX_BYTES);
        }
        if (request != null && !image.hasMailboxHandler()) {
            throw new IllegalStateException(image.path() + ": no " + MAILBOX_HANDLER);
        }
        this.hostMailbox = request == null ? null : request.clone();
    }

    /**
     * One line for summaries: the program, the calls and the faults so far.
     *
     * @return the line
     */
    public String summaryLine() {
        final StringBuilder b = new StringBuilder("np firmware        ").append(image.path());
        synchronized (this) {
            b.append(String.format(Locale.ROOT, "; %s model; %d probes handled, %d FAIL, ", model.name(), calls, failed));
            if (ifa2Probes > 0) {
                b.append(String.format(Locale.ROOT, "%d IFA2 probes, %d with per-hop records, at most %d hops, ",
                    ifa2Probes, ifa2ProbesWithRecords, ifa2MaxRecords));
            }
            if (hostMailbox != null) {
                b.append(String.format(Locale.ROOT, "%d mailbox messages, %d failed, ", mailboxSent, mailboxFailed));
            }
        }
        return b.append(faultLog.summary()).toString();
    }

    /**
     * The program on one NIC; its firmware memory is built on the first probe.
     *
     * @param ports the NIC whose port speed and byte counters the program reads, or null (counters read 0)
     * @return the NIC's instance
     */
    public Nic forNic(final NicPorts ports) {
        return new Nic(ports);
    }

    /**
     * The NP program of one NIC: its own firmware memory and hart. After {@link #handle} the response
     * words, cycles, instructions and time are in {@link #word0()} .. {@link #lastPs()}.
     *
     * <p>Allocation-free per probe after the first. Thread-safety: not thread-safe.
     */
    public final class Nic {
        private final NicPorts ports;
        private final byte[] request = new byte[MAX_REQUEST_BYTES];
        private int requestBytes;
        private FirmwareNic nic;
        private Hart hart;
        private int word0;
        private int word1;
        private int word2;
        private long lastCycles;
        private long lastInstructions;
        private long lastPs;

        private Nic(final NicPorts ports) {
            this.ports = ports;
        }

        /**
         * Runs {@code doca_pcc_dev_np_user_packet_handler} on one probe request.
         *
         * @param port          NIC port of arrival, 0..3
         * @param requestSendNs the requester's send timestamp the probe carries, ns (32 bits)
         * @param srcHost       requester host id (its IPv4 address is 10.x.y.z of it)
         * @param dstHost       this NIC's host id
         * @param udpSrcPort    the probe's UDP source port
         * @param dscp          its DSCP, 0..63
         * @param ecn           its ECN codepoint, 0..3
         * @param nowNs         simulated time, ns (what the program's timers read)
         * @return {@link #OK}, {@link #FAILED}, {@link #FAULT} or {@link #BUDGET}
         */
        public int handle(final int port, final int requestSendNs, final int srcHost, final int dstHost, final int udpSrcPort,
                          final int dscp, final int ecn, final long nowNs) {
            return handle(port, requestSendNs, srcHost, dstHost, udpSrcPort, dscp, ecn, nowNs, -1, 0, null, 0);
        }

        /**
         * Runs {@code doca_pcc_dev_np_user_packet_handler} on one probe request, CCMAD or IFA2. An IFA2
         * probe ({@code ifa2HopLimit >= 0}) is laid out as firmware/ABI.md section 9 and the DOCA PCC fact
         * sheet Addendum B.2 say: Ethernet, IPv4 (protocol {@link #IFA2_IP_PROTOCOL}), the IFA header (version 2,
         * the GNS, next header UDP, Max Length 40), UDP ({@code get_l4_header}), the metadata header (Hop
         * Limit, Current Length = 8 x records), the records newest first, the MAD header and the send timestamp.
         *
         * @param port          NIC port of arrival, 0..3
         * @param requestSendNs the requester's send timestamp the probe carries, ns (32 bits)
         * @param srcHost       requester host id
         * @param dstHost       this NIC's host id
         * @param udpSrcPort    the probe's UDP source port
         * @param dscp          its DSCP, 0..63
         * @param ecn           its ECN codepoint, 0..3
         * @param nowNs         simulated time, ns
         * @param ifa2HopLimit  the metadata header's Hop Limit on arrival, 0..255, or -1 for a CCMAD probe
         * @param ifa2Gns       the IFA header's GNS, 0..15
         * @param records       the records in insertion order (oldest first), {@code 4} longs each holding eight
         *                      record bytes big-endian (the switch's {@code Packet.intHops}); null when none
         * @param recordCount   records, 0..{@link #IFA2_MAX_RECORDS}
         * @return {@link #OK}, {@link #FAILED}, {@link #FAULT} or {@link #BUDGET}
         * @throws IllegalArgumentException when recordCount is out of range
         */
        public int handle(final int port, final int requestSendNs, final int srcHost, final int dstHost, final int udpSrcPort,
                          final int dscp, final int ecn, final long nowNs, final int ifa2HopLimit, final int ifa2Gns,
                          final long[] records, final int recordCount) {
            if (recordCount < 0 || recordCount > IFA2_MAX_RECORDS || recordCount > 0 && records == null) {
                throw new IllegalArgumentException("IFA2 records must be 0.." + IFA2_MAX_RECORDS + " with their array, got "
                    + recordCount);
            }
            if (nic == null) {
                nic = new FirmwareNic(image, model, null, FirmwareProvider.INIT_MAX_INSTRUCTIONS, line -> log.accept(line));
                nic.services(services);
                nic.ports(ports);
                hart = nic.newHart(0);
            }
            if (!nic.portsUp) {
                nic.writePorts(ports != null ? ports.speedBitsPerSec(0) : 0);
                if (image.hasPortInfoHandler()) {
                    final FirmwareNic.Outcome o = call(CALL_PORT_INFO, 0, 0, nowNs);
                    record(o, "doca_pcc_dev_user_port_info_changed call");
                }
                if (hostMailbox != null) {
                    sendHostMailbox(nowNs);
                }
            }
            final int l4;
            final int payload;
            if (ifa2HopLimit >= 0) {
                requestBytes = NpProbePacket.writeIfa2(request, requestSendNs, srcHost, dstHost, udpSrcPort, dscp, ecn,
                    ifa2HopLimit, ifa2Gns, records, recordCount);
                l4 = IFA2_L4_OFFSET;
                payload = requestBytes - 4;
            } else {
                requestBytes = NpProbePacket.writeCcmad(request, requestSendNs, srcHost, dstHost, udpSrcPort, dscp, ecn);
                l4 = L4_OFFSET;
                payload = PAYLOAD_OFFSET;
            }
            // an IFA2 request longer than one row continues into the next rows, which no NP call uses (all run on RANK)
            nic.memory.write(image.symbol(NP_PACKETS) + (long) RANK * PACKET_ROW_BYTES, request, requestBytes);
            final long m = FirmwareNic.mailbox(RANK);
            nic.memory.store(m + CT_NP_DATA, 8, 0);
            nic.memory.store(m + CT_NP_DATA + 8, 4, 0);
            nic.memory.store(m + CT_NP_L4_OFFSET, 4, l4);
            nic.memory.store(m + CT_NP_PAYLOAD_OFFSET, 4, payload);
            synchronized (FirmwareNotificationPoint.this) { // NICs of a partitioned run call from several threads
                calls++;
                if (ifa2HopLimit >= 0) {
                    ifa2Probes++;
                    if (recordCount > 0) {
                        ifa2ProbesWithRecords++;
                    }
                    ifa2MaxRecords = Math.max(ifa2MaxRecords, recordCount);
                }
            }
            final FirmwareNic.Outcome o = call(CALL_NP_PACKET, requestBytes, port, nowNs);
            lastCycles = nic.lastCycles;
            lastInstructions = nic.lastInstructions;
            lastPs = psOf(lastCycles, model.clockHz());
            // the response bytes as the requester's getters read them: each word big-endian
            word0 = Integer.reverseBytes((int) nic.memory.load(m + CT_NP_DATA, 4));
            word1 = Integer.reverseBytes((int) nic.memory.load(m + CT_NP_DATA + 4, 4));
            word2 = Integer.reverseBytes((int) nic.memory.load(m + CT_NP_DATA + 8, 4));
            if (o != FirmwareNic.Outcome.DONE) {
                record(o, "doca_pcc_dev_np_user_packet_handler call");
                return o == FirmwareNic.Outcome.FAULT ? FAULT : BUDGET;
            }
            if (nic.memory.load(m + CT_RETURN, 4) != 0) {
                synchronized (FirmwareNotificationPoint.this) {
                    failed++;
                }
                return FAILED;
            }
            return OK;
        }

        /** The NP host's mailbox message at process start: the callback's non-zero return or abandonment counts as failed. */
        private void sendHostMailbox(final long nowNs) {
            final byte[] req = hostMailbox;
            nic.memory.write(image.symbol(HOST_REQUEST), req);
            final FirmwareNic.Outcome o = call(CALL_HOST_MAILBOX, req.length, 0, nowNs);
            record(o, "doca_pcc_dev_user_mailbox_handle call");
            final boolean ok = o == FirmwareNic.Outcome.DONE && nic.memory.load(FirmwareNic.mailbox(RANK) + CT_RETURN, 4) == 0;
            synchronized (FirmwareNotificationPoint.this) {
                mailboxSent++;
                if (!ok) {
                    mailboxFailed++;
                }
            }
        }

        private FirmwareNic.Outcome call(final int call, final int arg, final int arg2, final long nowNs) {
            final long m = FirmwareNic.mailbox(RANK);
            FirmwareMailbox.writeServiceCall(nic.memory, m, call, RANK, nowNs, arg, arg2);
            nic.contextExtraCycles(0);
            nic.select(RANK);
            return nic.call(hart, image.entryEvent, m, 0, maxInstructions);
        }

        /** Records an abandoned call in the shared fault log (nothing for a call that returned). */
        private void record(final FirmwareNic.Outcome o, final String what) {
            if (o == FirmwareNic.Outcome.FAULT) {
                faultLog.trap(nic.nowPs(), nic.host(), nic.faultLine(hart.fault()), what);
            } else if (o == FirmwareNic.Outcome.BUDGET) {
                faultLog.budget(nic.nowPs(), nic.host(), hart.pc(), image.describe(hart.pc()), what);
            }
        }

        /** @return response bytes 0..3 of the last call, read big-endian */
        public int word0() {
            return word0;
        }

        /** @return response bytes 4..7, read big-endian */
        public int word1() {
            return word1;
        }

        /** @return response bytes 8..11, read big-endian */
        public int word2() {
            return word2;
        }

        /** @return cycles the last handler call took */
        public long lastCycles() {
            return lastCycles;
        }

        /** @return instructions the last handler call retired */
        public long lastInstructions() {
            return lastInstructions;
        }

        /** @return simulated time the last handler call took at the model's clock, ps, rounded up */
        public long lastPs() {
            return lastPs;
        }

        /**
         * A little-endian value of this NIC's NP firmware memory at a symbol (tests and tools).
         *
         * @param symbol      a global of the ELF
         * @param offsetBytes offset from it
         * @param sizeBytes   1, 2, 4 or 8
         * @return the value, zero-extended
         * @throws FirmwareException when the ELF has no such symbol
         * @throws IllegalStateException before the first probe
         */
        public long symbolLoad(final String symbol, final long offsetBytes, final int sizeBytes) {
            if (nic == null) {
                throw new IllegalStateException("no probe handled yet");
            }
            final long a = image.symbol(symbol);
            if (a < 0) {
                throw new FirmwareException(image.path() + ": no symbol " + symbol);
            }
            final long v = nic.memory.load(a + offsetBytes, sizeBytes);
            return sizeBytes == 8 ? v : v & ((1L << (8 * sizeBytes)) - 1);
        }
    }

    /** Cycles to ps at a clock, rounded up (as the emulator converts handler cycles). */
    static long psOf(final long cycles, final long clockHz) {
        if (cycles <= Long.MAX_VALUE / 1_000_000_000_000L) {
            return (cycles * 1_000_000_000_000L + clockHz - 1) / clockHz;
        }
        return (long) Math.ceil(cycles * 1e12 / clockHz);
    }
}
