package dev.nicsim.nic;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static dev.nicsim.nic.Bench.PROP_PS;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A NIC's counters are one registry block (and one more for each later part: the NP program, the
 * end-of-run pause time, the CC processor's counters), not an object, string and map entry per
 * counter; rows keep the order {@code counters.csv} always had.
 */
class NicCountersTest {
    private static List<String> rows(final CounterRegistry reg, final String component) throws IOException {
        final List<String> out = new ArrayList<>();
        reg.forEach(true, (c, n, v) -> {
            if (c.equals(component)) {
                out.add(n);
            }
        });
        return out;
    }

    @Test
    void aNicIsOneBlockAndItsLaterPartsOneBlockEach() throws IOException {
        final Simulator sim = new Simulator();
        final PacketPool pool = new PacketPool();
        final CounterRegistry reg = new CounterRegistry();
        final RoceNic a = new RoceNic(sim, "a", 0, new NicConfig(), reg, pool);
        final RoceNic b = new RoceNic(sim, "b", 1, new NicConfig(), reg, pool);
        assertEquals(2, reg.blocks());
        assertEquals(2 * 33, reg.rows());
        assertEquals(List.of("np_cnp_sent", "np_ecn_marked_roce_packets", "rp_cnp_handled", "rp_cnp_ignored",
            "out_of_sequence", "packet_seq_err", "duplicate_request", "local_ack_timeout_err", "implied_nak_seq_err",
            "roce_adp_retrans", "tx_data_packets", "rx_data_packets", "tx_bytes", "rx_bytes", "ecn_ce_received",
            "pfc_pause_received", "tx_ack_packets", "tx_nak_packets", "rx_ack_packets", "rx_nak_packets",
            "tx_read_requests", "rx_read_requests", "tx_rtt_probes", "tx_rtt_responses", "rx_unknown_qp_packets",
            "cc_results_applied", "flows_started", "flows_completed", "rx_trimmed_packets", "tx_trim_nak_packets",
            "sr_out_of_order_accepted", "sr_sack_resends", "sr_nack_resends"), rows(reg, "a"));

        a.setNpProgram(probe -> NpProgram.OK);
        assertEquals(3, reg.blocks());
        assertEquals(2 * 33 + 5, reg.rows());

        a.connect(Bench.RATE, PROP_PS, b, 0);
        b.connect(Bench.RATE, PROP_PS, a, 0);
        final DirectCcProcessor pa = new DirectCcProcessor(new FixedAlgorithm(), 0, a);
        a.setCcProcessor(pa);
        b.setCcProcessor(new DirectCcProcessor(new FixedAlgorithm(), 0, b));
        final List<String> names = new ArrayList<>();
        pa.forEachCounter((n, v) -> names.add(n));
        a.publishProcessorCounters();
        b.publishProcessorCounters();
        a.publishProcessorCounters(); // values set again into the same blocks
        // per NIC: rx_pause_duration_us, and the processor's counters under <name>/cc
        assertEquals(3 + 4, reg.blocks());
        assertEquals(2 * 33 + 5 + 2 * (1 + names.size()), reg.rows());
        assertEquals(names, rows(reg, "a/cc"));
        assertEquals(names, rows(reg, "b/cc"));
        assertEquals(0, reg.value("a", "rx_pause_duration_us"));
        assertEquals(0, reg.value("a", "np_program_calls"));
    }
}
