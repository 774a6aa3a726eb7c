/*
 * FirmwareReference - runs a firmware test script (firmware/tests/scripts/NAME.script, format in
 * firmware/tests/driver.h) through nicsim's Java handler of the same algorithm and prints the
 * same lines the C test driver prints, so `make -C firmware test-java` can diff the C port
 * against its Java twin call by call (results, all 12 context words, counters).
 *
 * Usage: java -cp cli/target/nicsim.jar firmware/tests/java/FirmwareReference.java ALGORITHM SCRIPT
 * Exit 0 on success, 2 on a bad script line (one line on stderr naming file and line).
 */
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;

public final class FirmwareReference {
    private FirmwareReference() {
    }

    public static void main(final String[] args) throws Exception {
        final PccAlgorithmProvider provider = PccAlgorithms.byName(args[0]);
        final List<String> lines = Files.readAllLines(Path.of(args[1]));
        final PccParameterValues values = new PccParameterValues(provider.parameters());
        PccAlgorithm algorithm = null;
        final PccAttributes attributes = new PccAttributes();
        final PccContext context = new PccContext().wrap(new UnsafeBuffer(new byte[48]), 0, 12);
        final PccEvent event = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0);
        final PccResult result = new PccResult();
        final StringBuilder out = new StringBuilder();
        long line = 100_000_000_000L;
        int mtu = 1000;
        int rtt = 8000;
        int slot = 0;
        boolean overload = false;
        for (int no = 1; no <= lines.size(); no++) {
            String text = lines.get(no - 1);
            final int hash = text.indexOf('#');
            if (hash >= 0) {
                text = text.substring(0, hash);
            }
            final String[] tok = text.trim().split("\\s+");
            if (tok[0].isEmpty()) {
                continue;
            }
            final Map<String, Long> kv = new HashMap<>();
            for (int i = 1; i < tok.length; i++) {
                final int eq = tok[i].indexOf('=');
                if (eq > 0) {
                    kv.put(tok[i].substring(0, eq), Long.parseLong(tok[i].substring(eq + 1)));
                }
            }
            switch (tok[0]) {
                case "attr" -> {
                    line = kv.getOrDefault("line", 100_000_000_000L);
                    mtu = kv.getOrDefault("mtu", 1000L).intValue();
                    rtt = kv.getOrDefault("rtt", 8000L).intValue();
                    slot = kv.getOrDefault("slot", 0L).intValue();
                    overload = kv.getOrDefault("overload", 0L) != 0;
                }
                case "param" -> {
                    if (algorithm != null) {
                        System.err.println(args[1] + ":" + no + ": param after the first call");
                        System.exit(2);
                    }
                    final PccParameter p = values.descriptor(tok[1]);
                    final long raw = Long.parseLong(tok[2]);
                    values.set(tok[1], p.kind() == PccParameter.Kind.FIXED_16_16 ? raw / 65536.0 : raw);
                }
                case "init" -> {
                    if (algorithm == null) {
                        algorithm = provider.create(values);
                    }
                    context.clear();
                    result.reset();
                    attributes.set(line, slot, overload, mtu, rtt).initialPsn(kv.getOrDefault("psn", 0L).intValue());
                    algorithm.initFlow(context, kv.getOrDefault("now", 0L).intValue(), attributes, result);
                    print(out, no, tok[0], result, context);
                }
                case "counters" -> {
                    if (algorithm == null) {
                        algorithm = provider.create(values);
                    }
                    final PccCounters c = algorithm.counters();
                    for (int i = 0; i < c.size(); i++) {
                        out.append("counter ").append(c.name(i)).append(' ').append(c.get(i)).append('\n');
                    }
                }
                default -> {
                    final int type = switch (tok[0]) {
                        case "tx" -> PccEventType.TX_BURST;
                        case "ack" -> PccEventType.ACK;
                        case "nack" -> PccEventType.NACK;
                        case "cnp" -> PccEventType.CNP;
                        case "rtt" -> PccEventType.RTT_RESPONSE;
                        case "timer" -> PccEventType.TIMER;
                        default -> -1;
                    };
                    if (type < 0) {
                        System.err.println(args[1] + ":" + no + ": bad line: " + text.trim());
                        System.exit(2);
                    }
                    if (algorithm == null) {
                        algorithm = provider.create(values);
                    }
                    final int sn = kv.getOrDefault("sn", 0L).intValue();
                    event.reset(type, kv.getOrDefault("sub", 0L).intValue(), 7, sn, kv.getOrDefault("ts", 0L).intValue());
                    event.firstSn(kv.getOrDefault("first", (long) sn).intValue());
                    event.numCoalesced(kv.getOrDefault("n", 1L).intValue());
                    event.tx(kv.getOrDefault("bytes", 0L).intValue(), kv.getOrDefault("pkts", 0L).intValue());
                    event.rtt(kv.getOrDefault("rs", 0L).intValue(), kv.getOrDefault("rr", 0L).intValue(),
                        kv.getOrDefault("rp", 0L).intValue());
                    event.flags(kv.getOrDefault("flags", 0L).intValue());
                    attributes.set(line, slot, overload, mtu, rtt);
                    result.reset();
                    algorithm.onEvent(context, event, attributes, result);
                    print(out, no, tok[0], result, context);
                }
            }
        }
        System.out.print(out);
    }

    private static void print(final StringBuilder out, final int no, final String what, final PccResult r,
                              final PccContext c) {
        out.append(no).append(' ').append(what).append(" ->");
        out.append(" rate=").append(r.rate() == PccResult.RATE_UNCHANGED ? "-" : Integer.toString(r.rate()));
        out.append(" window=").append(r.windowBytes() == PccResult.WINDOW_UNCHANGED ? "-" : Long.toString(r.windowBytes()));
        out.append(" timer=").append(r.timerNs() == 0 ? "-" : Integer.toString(r.timerNs()));
        out.append(" fs=").append(r.fastStartPackets() == PccResult.FAST_START_UNCHANGED ? "-"
            : Integer.toString(r.fastStartPackets()));
        out.append(" probe=").append(r.rttProbeRequest() ? 1 : 0).append(" ctx=");
        for (int i = 0; i < 12; i++) {
            out.append(i == 0 ? "" : ",").append(Integer.toHexString(c.get(i)));
        }
        out.append('\n');
    }
}
