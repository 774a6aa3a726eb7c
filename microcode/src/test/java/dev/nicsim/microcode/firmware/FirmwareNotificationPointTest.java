package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.CycleModel;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 item 5: notification-point programs written from Addendum A.7 (committed ELFs of
 * {@code firmware/testfw/doca_np_*.c}) run on the receiving NIC's DPA model for each probe: the
 * request as firmware/ABI.md section 9 lays it out, the 12 response bytes, the NIC's RX-byte counter
 * read at the moment the handler runs, {@code timer_lo} in us, cycles counted, and a handler that loops
 * or faults abandoned and counted while later probes are answered.
 */
class FirmwareNotificationPointTest {
    private static Path elf(final String name) {
        return FirmwareDifferentialTest.elf("test/" + name);
    }

    private static NicPorts rx(final long[] rxBytes) {
        return new NicPorts() {
            @Override
            public long speedBitsPerSec(final int port) {
                return 100_000_000_000L;
            }

            @Override
            public long txBytes(final int port) {
                return 0;
            }

            @Override
            public long rxBytes(final int port) {
                return rxBytes[0];
            }
        };
    }

    @Test
    void theNicTelemetryNpAnswersWithTheSendTimeTheRxBytesAndItsTimer() {
        final FirmwareNotificationPoint np = FirmwareNotificationPoint.load(elf("doca_np_rx_bytes.elf"), 100_000, CycleModel.bf3Dpa());
        final long[] rx = {0x1_2345_6789L};
        final FirmwareNotificationPoint.Nic nic = np.forNic(rx(rx));
        // probe sent at 0xDEADBEEF ns, handled at t = 123,456,789 ns: timer_lo = 123,456 us
        assertEquals(FirmwareNotificationPoint.OK, nic.handle(0, 0xDEAD_BEEF, 1, 0, 0xC123, 26, 2, 123_456_789L));
        // the program stores word 0 = bswap32(first payload word loaded little-endian) = the send time,
        // little-endian in memory; read big-endian (as the requester's getters read raw words) that is 0xEFBEADDE
        assertEquals(0xEFBE_ADDE, nic.word0());
        // word 1: the RX-bytes counter of port 0, low 32 bits 0x23456789, stored little-endian
        assertEquals(Integer.reverseBytes(0x2345_6789), nic.word1());
        assertEquals(Integer.reverseBytes(123_456), nic.word2());
        // the request it read (ABI.md 9): IPv4 EtherType, DSCP 26 / ECN 2, UDP to 4791, payload = send time big-endian
        final long row = 0; // thread 0's row
        assertEquals(0x0008, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, row + 12, 2)); // 08 00 read little-endian
        assertEquals(26 << 2 | 2, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, row + 15, 1));
        assertEquals(0xB712, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, row + 36, 2)); // 4791 = 0x12B7: bytes 12 B7
        assertEquals(Integer.reverseBytes(0xDEAD_BEEF) & 0xFFFF_FFFFL, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, row + 66, 4));
        // the IPv4 header checksums to 0xFFFF (RFC 791 ones' complement sum over the 20 bytes)
        long sum = 0;
        for (int i = 14; i < 34; i += 2) {
            sum += nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, row + i, 1) << 8 | nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, row + i + 1, 1);
        }
        sum = (sum & 0xFFFF) + (sum >> 16);
        assertEquals(0xFFFF, (sum & 0xFFFF) + (sum >> 16));
        // cycle-counted on bf3-dpa: time = cycles at 1.8 GHz, rounded up to a ps
        assertTrue(nic.lastCycles() > 0 && nic.lastInstructions() > 0);
        assertEquals((nic.lastCycles() * 1_000_000_000_000L + 1_799_999_999L) / 1_800_000_000L, nic.lastPs());
        // the counter is read when the handler runs: 1,148 bytes more by the second probe
        rx[0] += 1148;
        assertEquals(FirmwareNotificationPoint.OK, nic.handle(0, 8816, 1, 0, 0xC123, 26, 2, 20_320L));
        assertEquals(Integer.reverseBytes(0x2345_6789 + 1148), nic.word1());
        assertEquals(Integer.reverseBytes(20), nic.word2());
        assertEquals(Integer.reverseBytes(8816), nic.word0());
        // a probe on port 1: the program answers 0 for ports other than 0
        assertEquals(FirmwareNotificationPoint.OK, nic.handle(1, 8816, 1, 0, 0xC123, 26, 2, 30_000L));
        assertEquals(0, nic.word1());
        assertEquals(3, np.calls());
        assertEquals(0, np.faults() + np.budgetExceeded() + np.failed());
    }

    @Test
    void aHandlerThatLoopsOrFaultsIsAbandonedAndCountedAndLaterProbesAreAnswered() {
        final FirmwareNotificationPoint np = FirmwareNotificationPoint.load(elf("doca_np_faults.elf"), 10_000, CycleModel.bf3Dpa());
        final FirmwareNotificationPoint.Nic nic = np.forNic(rx(new long[1]));
        assertEquals(FirmwareNotificationPoint.BUDGET, nic.handle(0, 1000, 1, 0, 1, 0, 0, 5000));
        assertEquals(10_000, nic.lastInstructions());
        assertEquals(FirmwareNotificationPoint.FAULT, nic.handle(0, 2000, 1, 0, 1, 0, 0, 6000));
        // third call: the send time copied unswapped (read big-endian: the send time), FAIL returned
        assertEquals(FirmwareNotificationPoint.FAILED, nic.handle(0, 3000, 1, 0, 1, 0, 0, 7000));
        assertEquals(3000, nic.word0());
        assertEquals(0, nic.word1() | nic.word2());
        assertEquals(FirmwareNotificationPoint.OK, nic.handle(0, 4000, 1, 0, 1, 0, 0, 8000));
        assertEquals(4000, nic.word0());
        assertEquals(4, np.calls());
        assertEquals(1, np.budgetExceeded());
        assertEquals(1, np.faults());
        assertEquals(1, np.failed());
        assertTrue(np.firstFault().startsWith("instruction budget of 10000 exceeded at pc 0x")
            && np.firstFault().endsWith("(doca_pcc_dev_np_user_packet_handler call)"), np.firstFault());
        assertTrue(np.summaryLine().contains("4 probes handled, 1 FAIL, 1 faults, 1 over the budget of 10000 instructions"),
            np.summaryLine());
    }

    @Test
    void aReactionPointAlgorithmIsNotAnNpProgram() {
        final FirmwareException x = assertThrows(FirmwareException.class,
            () -> FirmwareNotificationPoint.load(elf("doca_rp_np_raw.elf"), 1000, CycleModel.bf3Dpa()));
        assertTrue(x.getMessage().endsWith("doca_rp_np_raw.elf: no doca_pcc_dev_np_user_packet_handler: not a notification-point"
            + " program (it defines doca_pcc_dev_user_algo: a reaction-point algorithm, for algorithm.firmware)"), x.getMessage());
    }
}
