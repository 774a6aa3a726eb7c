package dev.nicsim.scenario;

import dev.nicsim.microcode.firmware.FirmwareLayout;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.Units;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the host-side actions of a scenario: {@code firmware.mailbox} messages to the firmware
 * (DOCA PCC fact sheet Addendum A.5) and {@code link_events} (docs/scenarios.md). Keys, ranges and
 * defaults are the {@link ScenarioSchema} rows; times are bounded by the stop time.
 *
 * <p>Thread-safety: stateless.
 */
final class HostActionSection {
    private HostActionSection() {
    }

    /** A time field given either as {@code at_us} or as {@code at_ns} (exactly one), as ps, at most {@code maxPs}. */
    private static long atPs(final YamlFields e, final long maxPs) {
        e.known("at_us", "at_ns");
        if (e.has("at_us") == e.has("at_ns")) {
            throw e.fieldError(e.has("at_us") ? "at_ns" : "at_us", "give exactly one of at_us and at_ns");
        }
        final double maxUs = Units.usFromPs(maxPs);
        final long ps = e.has("at_us") ? e.scaledUpTo("at_us", maxUs) : e.scaledUpTo("at_ns", maxUs * Units.NS_PER_US);
        return Math.min(ps, maxPs);
    }

    /**
     * {@code firmware.mailbox} entries: {@code at_us}/{@code at_ns}, {@code hex} or {@code words} (32-bit
     * little-endian), {@code nic} (host id or {@code all}), {@code max_response_bytes}; sorted by time, stable.
     *
     * @param entries the entries
     * @param maxNic  the largest host id
     * @param maxPs   the latest time, ps
     * @return the messages in time order
     * @throws ScenarioException naming the field of any bad entry
     */
    static List<Scenario.MailboxMessage> mailbox(final List<YamlFields> entries, final int maxNic, final long maxPs) {
        final int limit = FirmwareLayout.HOST_MAILBOX_BYTES;
        final List<Scenario.MailboxMessage> out = new ArrayList<>(entries.size());
        for (final YamlFields e : entries) {
            final long at = atPs(e, maxPs);
            e.known("hex", "words");
            if (e.has("hex") == e.has("words")) {
                throw e.fieldError(e.has("hex") ? "words" : "hex", "give exactly one of hex (the bytes in order) and words"
                    + " (little-endian 32-bit words)");
            }
            final String hex;
            if (e.has("hex")) {
                hex = hexBytes(e);
            } else {
                final StringBuilder b = new StringBuilder();
                for (final long w : e.wordList("words", 0, 0xFFFF_FFFFL)) {
                    for (int i = 0; i < 4; i++) {
                        b.append(String.format(Locale.ROOT, "%02x", w >>> (8 * i) & 0xFF));
                    }
                }
                hex = b.toString();
            }
            if (hex.length() / 2 > limit) {
                throw e.fieldError(e.has("hex") ? "hex" : "words", "a request holds at most " + limit
                    + " bytes (the host mailbox buffer, docs/doca-pcc.md), got " + hex.length() / 2);
            }
            final String target = e.string("nic");
            final int nic = "all".equals(target) ? Scenario.ALL_NICS : (int) e.integer("nic", 0, maxNic);
            final int maxResponse = (int) e.integer("max_response_bytes");
            e.finish();
            out.add(new Scenario.MailboxMessage(at, hex, nic, maxResponse));
        }
        out.sort(Comparator.comparingLong(Scenario.MailboxMessage::atPs));
        return List.copyOf(out);
    }

    /**
     * A mailbox request's {@code hex} field as lower-case hex digits: an optional {@code 0x}, then the
     * bytes in order as pairs of hex digits; spaces, tabs, {@code _} and {@code :} may stand between
     * bytes only (not inside one), so every group between separators holds an even number of digits.
     */
    private static String hexBytes(final YamlFields e) {
        final String given = e.string("hex");
        String text = given.strip();
        if (text.startsWith("0x") || text.startsWith("0X")) {
            text = text.substring(2);
        }
        if (!text.isEmpty() && !text.matches("(?:[0-9a-fA-F]{2})+(?:[\\s_:]+(?:[0-9a-fA-F]{2})+)*")) {
            throw e.fieldError("hex", "expected the bytes in order as pairs of hex digits, separated by spaces (or _ or :)"
                + " only between bytes, e.g. '00 00 04 00' or '00000400', got '" + given + "'");
        }
        return text.replaceAll("[\\s_:]", "").toLowerCase(Locale.ROOT);
    }

    /**
     * Messages need firmware that defines the mailbox callback: one line at load instead of a silent no-op.
     *
     * @param fw        the {@code firmware} mapping (for the error)
     * @param mailbox   the messages
     * @param provider  the algorithm's provider
     * @throws ScenarioException naming {@code firmware.mailbox} when nothing would receive the messages
     */
    static void requireMailboxHandler(final YamlFields fw, final List<Scenario.MailboxMessage> mailbox,
                                      final PccAlgorithmProvider provider) {
        if (mailbox.isEmpty()) {
            return;
        }
        if (!(provider instanceof FirmwareProvider fp)) {
            throw fw.fieldError("mailbox", "messages go to a DOCA PCC firmware's doca_pcc_dev_user_mailbox_handle, but this"
                + " scenario runs the Java algorithm '" + provider.name() + "'; give algorithm.firmware");
        }
        if (!fp.image().hasMailboxHandler()) {
            throw fw.fieldError("mailbox", fp.image().path() + " defines no doca_pcc_dev_user_mailbox_handle, so nothing would"
                + " receive these " + mailbox.size() + " messages; define it in the program or drop firmware.mailbox");
        }
    }

    /**
     * {@code link_events} entries: {@code at_us}/{@code at_ns}, {@code host}, {@code state} ({@code down}/{@code up});
     * per host the states must alternate starting with {@code down}, at distinct times.
     *
     * @param entries the entries
     * @param hosts   hosts of the topology
     * @param maxPs   the latest time, ps
     * @return the events in time order
     * @throws ScenarioException naming the field of any bad entry
     */
    static List<Scenario.LinkEvent> linkEvents(final List<YamlFields> entries, final int hosts, final long maxPs) {
        final List<Scenario.LinkEvent> out = new ArrayList<>(entries.size());
        final List<YamlFields> where = new ArrayList<>(entries.size());
        for (final YamlFields e : entries) {
            final long at = atPs(e, maxPs);
            final int host = (int) e.integerIn("host", 0, hosts - 1);
            final boolean up = "up".equals(e.choice("state"));
            e.finish();
            out.add(new Scenario.LinkEvent(at, host, up));
            where.add(e);
        }
        final Integer[] order = new Integer[out.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(i -> out.get(i).atPs()));
        final Map<Integer, Scenario.LinkEvent> last = new HashMap<>();
        final List<Scenario.LinkEvent> sorted = new ArrayList<>(out.size());
        for (final int i : order) {
            final Scenario.LinkEvent ev = out.get(i);
            final Scenario.LinkEvent before = last.get(ev.host());
            final boolean wasUp = before == null || before.up();
            if (before != null && before.atPs() == ev.atPs()) {
                throw where.get(i).fieldError("host", "host " + ev.host() + " already has a link event at this time");
            }
            if (wasUp == ev.up()) {
                throw where.get(i).fieldError("state", "host " + ev.host() + "'s link is already " + (ev.up() ? "up" : "down")
                    + " then (links start up; down and up must alternate)");
            }
            last.put(ev.host(), ev);
            sorted.add(ev);
        }
        return List.copyOf(sorted);
    }
}
