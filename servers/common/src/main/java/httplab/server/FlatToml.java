package httplab.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The subset of TOML a server.toml uses: one {@code key = value} per line, where a
 * value is a "quoted string" (no escapes), an integer or a boolean (true, false), and #
 * starts a comment.
 * Enough to read the packaged manifest without a TOML library in every jar.
 */
final class FlatToml {
    private FlatToml() {
    }

    /** Keys to values (strings unquoted, integers and booleans as written); throws naming the line. */
    static Map<String, String> parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int index = 0; index < lines.length; index++) {
            String line = lines[index].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int equals = line.indexOf('=');
            String key = equals < 0 ? "" : line.substring(0, equals).strip();
            if (!key.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("line " + (index + 1) + ": not a key = value line");
            }
            String value = parseValue(line.substring(equals + 1).strip());
            if (value == null) {
                throw new IllegalArgumentException("line " + (index + 1) + ": " + key
                        + ": not a \"string\", an integer or a boolean");
            }
            values.put(key, value);
        }
        return values;
    }

    /** The value without quotes, or null when it is not a plain string, an integer or a boolean. */
    private static String parseValue(String raw) {
        if (raw.startsWith("\"")) {
            int close = raw.indexOf('"', 1);
            if (close < 0 || raw.substring(1, close).contains("\\")) {
                return null;
            }
            String rest = raw.substring(close + 1).strip();
            return rest.isEmpty() || rest.startsWith("#") ? raw.substring(1, close) : null;
        }
        int comment = raw.indexOf('#');
        String bare = (comment < 0 ? raw : raw.substring(0, comment)).strip();
        return bare.matches("[+-]?[0-9]+|true|false") ? bare : null;
    }
}
