package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

/**
 * The per-hop telemetry one switch stamps on frames as they start serialisation: HPCC's INT on data
 * frames ({@link IntTelemetryStage}, with {@link SwitchConfig#intEnabled}) and IFA2 per-hop records on
 * the probes of RPs that ask for them ({@link Ifa2TelemetryStage}, with
 * {@link SwitchConfig#ifa2Enabled}; DOCA PCC fact sheet Addendum B). Allocation-free on the frame
 * path. Thread-safety: not thread-safe; the owning switch's simulation thread only.
 */
public final class SwitchTelemetry {
    private final boolean intEnabled;
    private final boolean ifa2Enabled;
    private int ifa2DeviceId;

    SwitchTelemetry(final boolean intEnabled, final boolean ifa2Enabled) {
        this.intEnabled = intEnabled;
        this.ifa2Enabled = ifa2Enabled;
    }

    /**
     * Sets the device ID this switch writes into the IFA2 per-hop records it inserts (fact sheet
     * Addendum B.3: 24 high bits at record bytes 0-2, 6 low bits at byte 3 bits 7-2). Default 0.
     *
     * @param deviceId 0 .. 2^30 - 1
     * @throws IllegalArgumentException outside that range
     */
    public void setIfa2DeviceId(final int deviceId) {
        if (deviceId < 0 || deviceId >= 1 << 30) {
            throw new IllegalArgumentException("IFA2 device ID must be in 0 .. 2^30 - 1, got " + deviceId);
        }
        this.ifa2DeviceId = deviceId;
    }

    /**
     * A frame starts serialisation on an egress port: stamps what the switch's configuration turns on.
     *
     * @param port      the egress port
     * @param portIndex its number on the switch
     * @param frame     the frame
     * @param nowPs     simulated time, ps
     */
    void onTransmitStart(final SwitchPort port, final int portIndex, final Packet frame, final long nowPs) {
        if (intEnabled) {
            IntTelemetryStage.onTransmitStart(port, frame, nowPs);
        }
        if (ifa2Enabled) {
            Ifa2TelemetryStage.onTransmitStart(port, portIndex, ifa2DeviceId, frame, nowPs);
        }
    }
}
