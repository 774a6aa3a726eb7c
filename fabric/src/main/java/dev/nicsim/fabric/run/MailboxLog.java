package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The host mailbox messages of a run or a replay and what the firmware answered, as {@code mailbox.csv}
 * (docs/outputs.md): one row per message and NIC, in delivery order (time, then the message's place in
 * the list, then host id), with columns
 * <pre>
 * time_ns,nic,message,request_bytes,request_hex,status,return_value,response_bytes,response_hex,thread_rank,instructions,cycles
 * </pre>
 * <ul>
 * <li>{@code time_ns}: when the message reached the NIC (the message's time), ns;</li>
 * <li>{@code nic}: host id (replay: source id); empty for a message to all NICs when there was none;</li>
 * <li>{@code message}: the message's index in {@code firmware.mailbox} (or the {@code --mailbox} file), from 0,
 *     in file order;</li>
 * <li>{@code status}: {@code ok} (the callback returned), {@code fault} or {@code budget} (abandoned; counted
 *     in {@code firmware_faults} / {@code firmware_budget_exceeded}), or {@code not_delivered} (the run ended
 *     before the message's time: every flow had completed, or the stop time came first);</li>
 * <li>{@code return_value}: the callback's return value as a signed 32-bit integer (0 = DOCA's OK, 1 = FAIL);
 *     empty unless {@code ok};</li>
 * <li>{@code response_bytes}, {@code response_hex}: the reply, the size the callback set in
 *     {@code *response_size} (preset to 0), at most the message's {@code max_response_bytes}; hex lower case;</li>
 * <li>{@code thread_rank}, {@code instructions}, {@code cycles}: the hardware thread the callback ran on and
 *     what it cost on the NIC's cycle model; empty when not delivered.</li>
 * </ul>
 *
 * <p>Thread-safety: not thread-safe; one run's thread.
 */
public final class MailboxLog {
    /** The file name. */
    public static final String FILE = "mailbox.csv";
    /** The header line. */
    public static final String HEADER = "time_ns,nic,message,request_bytes,request_hex,status,return_value,response_bytes,"
        + "response_hex,thread_rank,instructions,cycles\n";
    /** {@code status} of a message whose time the run never reached. */
    public static final String NOT_DELIVERED = "not_delivered";

    private final StringBuilder rows = new StringBuilder(HEADER);
    private long delivered;
    private long ok;
    private long failed;
    private long abandoned;
    private long notDelivered;

    /** Creates an empty log. */
    public MailboxLog() {
    }

    /**
     * Records a message the firmware of one NIC handled.
     *
     * @param timePs  delivery time, ps
     * @param nic     host (or replay source) id
     * @param message index of the message in its list
     * @param m       the message
     * @param reply   what the callback did
     */
    public void delivered(final long timePs, final int nic, final int message, final Scenario.MailboxMessage m,
                          final FirmwareAlgorithm.HostMailboxReply reply) {
        delivered++;
        if (!reply.completed()) {
            abandoned++;
        } else if (reply.returnValue() == 0) {
            ok++;
        } else {
            failed++;
        }
        row(timePs, Integer.toString(nic), message, m);
        rows.append(reply.status()).append(',');
        if (reply.completed()) {
            rows.append(reply.returnValue());
        }
        rows.append(',').append(reply.response().length).append(',').append(HexFormat.of().formatHex(reply.response()))
            .append(',').append(reply.threadRank()).append(',').append(reply.instructions()).append(',').append(reply.cycles())
            .append('\n');
    }

    /**
     * Records a message that did not reach a NIC.
     *
     * @param timePs  the message's time, ps
     * @param nic     host (or source) id, or -1 when there was no NIC to send it to
     * @param message index of the message in its list
     * @param m       the message
     */
    public void notDelivered(final long timePs, final int nic, final int message, final Scenario.MailboxMessage m) {
        notDelivered++;
        row(timePs, nic < 0 ? "" : Integer.toString(nic), message, m);
        rows.append(NOT_DELIVERED).append(",,,,,,\n");
    }

    private void row(final long timePs, final String nic, final int message, final Scenario.MailboxMessage m) {
        TraceText.appendNs(rows, timePs);
        rows.append(',').append(nic).append(',').append(message).append(',').append(m.requestHex().length() / 2).append(',')
            .append(m.requestHex()).append(',');
    }

    /** @return the CSV text so far, header included */
    public String text() {
        return rows.toString();
    }

    /**
     * Writes {@link #FILE} into a directory.
     *
     * @param dir the output directory
     * @throws IOException if it cannot be written
     */
    public void write(final Path dir) throws IOException {
        Files.writeString(dir.resolve(FILE), rows, StandardCharsets.US_ASCII);
    }

    /** @return one summary line: deliveries and their outcomes */
    public String summaryLine() {
        return String.format(Locale.ROOT, "mailbox            %d deliveries: %d returned OK, %d FAIL or other, %d abandoned;"
            + " %d not delivered (%s)", delivered, ok, failed, abandoned, notDelivered, FILE);
    }
}
