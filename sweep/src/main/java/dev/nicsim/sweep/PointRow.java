package dev.nicsim.sweep;

import java.io.Serializable;
import java.util.LinkedHashMap;

/**
 * The outcome of one {@link PointTask}, as a Spark task returns it to the driver.
 *
 * @param point   point number
 * @param seed    seed
 * @param status  {@link #OK} or {@link #FAILED}
 * @param error   the one-line error of a failed point, else empty
 * @param metrics {@link PointMetrics#COLUMNS} to their CSV text (empty when unknown, e.g. a failed point)
 */
public record PointRow(int point, long seed, String status, String error, LinkedHashMap<String, String> metrics)
    implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Status of a point that ran to the end. */
    public static final String OK = "ok";
    /** Status of a point that could not be built, threw, or ran past the point timeout. */
    public static final String FAILED = "failed";

    /** @return whether the point ran to the end */
    public boolean ok() {
        return OK.equals(status);
    }
}
