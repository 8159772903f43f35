package httplab.server;

/**
 * The n query parameter of /queries, TechEmpower's rule: missing or not a number gives
 * MIN, anything else is clamped to MIN..MAX.
 */
public final class QueryCount {
    public static final String PARAMETER = "n";
    public static final int MIN = 1;
    public static final int MAX = 500;

    private QueryCount() {
    }

    /** How many rows the raw parameter value asks for; null means missing. */
    public static int parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return MIN;
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            return MIN;
        }
        return (int) Math.max(MIN, Math.min(MAX, value));
    }

    /** The count a raw query string such as "n=20&x=1" asks for (its first n). */
    public static int fromQuery(String query) {
        return parse(Query.value(query, PARAMETER));
    }
}
