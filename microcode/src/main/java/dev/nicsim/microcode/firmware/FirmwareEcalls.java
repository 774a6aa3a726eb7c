package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.Environment;
import dev.nicsim.riscv.Hart;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The environment calls ({@code ecall}, a7 = number) the harts of one {@link FirmwareNic} make
 * (firmware/ABI.md): {@link FirmwareLayout#ECALL_DONE} ends a call; {@link FirmwareLayout#ECALL_PRINT}
 * writes {@code (a0, a1)} bytes to the firmware log, line by line (lines cut at 1000 characters);
 * the trace calls return 0; {@link FirmwareLayout#ECALL_NIC_COUNTERS} reads the connected NIC's
 * byte counters; any other number returns -38 (ENOSYS). The trace calls, unknown numbers and
 * NIC-counter reads nicsim cannot serve are counted and reported ({@link FirmwareServiceLog}).
 *
 * <p>Thread-safety: not thread-safe; one thread drives all the cores of the NIC.
 */
final class FirmwareEcalls implements Environment {
    private final FirmwareNic nic;
    private final Consumer<String> log;
    private final StringBuilder logLine = new StringBuilder();
    /** Where uses of unmodelled services are reported, or null (trial loads). */
    private FirmwareServiceLog services;
    /** This NIC's use counts per service ({@link FirmwareServiceLog#register}), or null. */
    private long[] serviceUses;
    /** The counter ID {@link #nicCounters} last refused with -22. */
    private long refusedCounterId;
    /** The number of IDs {@link #nicCounters} last refused with -22 (more than 64, unsigned), if {@link #refusedIsCount}. */
    private long refusedCount;
    /** Whether {@link #nicCounters} last refused a count of IDs rather than one ID. */
    private boolean refusedIsCount;

    /**
     * @param nic the NIC whose memory, image and connected ports the calls use
     * @param log receives the firmware's output lines
     */
    FirmwareEcalls(final FirmwareNic nic, final Consumer<String> log) {
        this.nic = nic;
        this.log = log;
    }

    /**
     * Reports this NIC's uses of services nicsim does not model.
     *
     * @param log the program's log
     */
    void services(final FirmwareServiceLog log) {
        this.services = log;
        this.serviceUses = log.register();
    }

    @Override
    public boolean ecall(final Hart h) {
        final long num = h.reg(17);
        if (num == FirmwareLayout.ECALL_DONE) {
            return false;
        }
        if (num == FirmwareLayout.ECALL_TRACE || num == FirmwareLayout.ECALL_TRACE_FLUSH) {
            serviceUsed(num == FirmwareLayout.ECALL_TRACE ? FirmwareServiceLog.TRACE : FirmwareServiceLog.TRACE_FLUSH, h);
            h.setReg(10, 0);
            return true;
        }
        if (num == FirmwareLayout.ECALL_NIC_COUNTERS) {
            final long r = nicCounters(h.reg(10), h.reg(11), h.reg(12));
            if (r == -22) {
                serviceUsed(FirmwareServiceLog.NIC_COUNTER_ID, h);
            } else if (r == -38) {
                serviceUsed(FirmwareServiceLog.NIC_COUNTERS_NO_NIC, h);
            }
            h.setReg(10, r);
            return true;
        }
        if (num == FirmwareLayout.ECALL_PRINT) {
            final long len = h.reg(11);
            final byte[] data = len <= 0 || len > 256 ? null : nic.memory.read(h.reg(10), (int) len);
            if (data != null) {
                for (final char ch : new String(data, StandardCharsets.UTF_8).toCharArray()) {
                    if (ch == '\n') {
                        log.accept(logLine.toString());
                        logLine.setLength(0);
                    } else if (logLine.length() < 1000) {
                        logLine.append(ch);
                    }
                }
            }
            h.setReg(10, data == null ? -14 : len);
            return true;
        }
        serviceUsed(FirmwareServiceLog.UNKNOWN_ECALL, h);
        h.setReg(10, -38);
        return true;
    }

    @Override
    public boolean toHost(final Hart h, final long value) {
        return false;
    }

    /**
     * Counts a use of an unmodelled service at an {@code ecall}; the NIC's first use of it is recorded
     * with what it asked and where it was called: an unknown number's pc, else the return address
     * (the runtime's service functions are leaves, so {@code ra} is where their caller resumes; after
     * a tail call, its caller's caller). Allocation-free after the first.
     */
    private void serviceUsed(final int service, final Hart h) {
        if (serviceUses == null || serviceUses[service]++ != 0) {
            return;
        }
        final String returning = "returning to " + nic.image.describe(h.reg(1));
        final String where = switch (service) {
            case FirmwareServiceLog.UNKNOWN_ECALL -> String.format(Locale.ROOT, "number 0x%x at pc 0x%x (%s)", h.reg(17),
                h.pc(), nic.image.describe(h.pc()));
            case FirmwareServiceLog.NIC_COUNTER_ID -> (refusedIsCount ? "with " + Long.toUnsignedString(refusedCount)
                + " counter IDs (at most 64), " : String.format(Locale.ROOT, "with counter ID 0x%x, ", refusedCounterId))
                + returning;
            default -> returning;
        };
        services.first(service, nic.nowPs(), nic.host(), where);
    }

    /**
     * Reads NIC counters for {@code doca_pcc_dev_nic_counters_sample}: each 32-bit id (DOCA 3.x form
     * with bit 24, or the 2.x fixed form {@code type << 4 | port}; type 1 RX bytes, 2 TX bytes; port 0
     * only) gets the low 32 bits of the port's byte counter at this moment.
     *
     * @return 0, -22 (an unknown id, or more than 64 ids), -14 (an array outside memory), or -38
     *         when no NIC is connected (the runtime then reads 0)
     */
    private long nicCounters(final long ids, final long count, final long values) {
        if (nic.ports == null) {
            return -38;
        }
        if (count < 0 || count > 64) {
            refusedCount = count;
            refusedIsCount = true;
            return -22;
        }
        for (int i = 0; i < count; i++) {
            if (nic.memory.find(ids + 4L * i, 4) == null || nic.memory.find(values + 4L * i, 4) == null) {
                return -14;
            }
            final long id = nic.memory.load(ids + 4L * i, 4) & 0xFFFF_FFFFL;
            final long field = (id & (1L << 24)) != 0 ? id & ~(1L << 24) : id;
            final int port = (int) (field & 0xF);
            final int type = (int) (field >> 4 & 0xF);
            if ((field & ~0xFFL) != 0 || port != 0 || (type != 1 && type != 2)) {
                refusedCounterId = id;
                refusedIsCount = false;
                return -22;
            }
            nic.memory.store(values + 4L * i, 4, type == 1 ? nic.ports.rxBytes(port) : nic.ports.txBytes(port));
        }
        return 0;
    }
}
