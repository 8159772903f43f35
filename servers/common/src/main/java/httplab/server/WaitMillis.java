package httplab.server;

/**
 * The ms query parameter of /delay and /blocking: a whole number of milliseconds from
 * MIN to MAX. Anything else (missing, 0, negative, not a number, above MAX) is INVALID,
 * which the server answers with 400 at once, never waiting.
 */
public final class WaitMillis {
    public static final String PARAMETER = "ms";
    public static final int MIN = 1;
    public static final int MAX = 10_000;
    public static final int INVALID = -1;

    private WaitMillis() {
    }

    /** The milliseconds the raw parameter value asks for, or INVALID; null means missing. */
    public static int parse(String raw) {
        if (raw == null || raw.isEmpty() || raw.length() > 5) {
            return INVALID;
        }
        for (int index = 0; index < raw.length(); index++) {
            if (raw.charAt(index) < '0' || raw.charAt(index) > '9') {
                return INVALID;
            }
        }
        int millis = Integer.parseInt(raw);
        return millis >= MIN && millis <= MAX ? millis : INVALID;
    }

    /** The value of ms in a raw query string such as "ms=10&x=1" (the first one), or null. */
    public static String fromQuery(String query) {
        return Query.value(query, PARAMETER);
    }
}
