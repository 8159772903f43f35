package httplab.server;

/** Reads one parameter from a raw query string, for servers that get the query unparsed. */
public final class Query {
    private Query() {
    }

    /** The value of the first name=value pair in a raw query such as "ms=10&x=1", or null. */
    public static String value(String query, String name) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return null;
    }
}
