package httplab.server;

import java.nio.charset.StandardCharsets;

/** The paths every httplab server answers, and the hello-world response of / and /plaintext. */
public final class Hello {
    public static final String BODY = "Hello, World!";
    public static final byte[] BODY_BYTES = BODY.getBytes(StandardCharsets.US_ASCII);
    public static final String CONTENT_TYPE = "text/plain; charset=UTF-8";
    public static final String ROOT_PATH = "/";
    public static final String PLAINTEXT_PATH = "/plaintext";
    /** {"message":"Hello, World!"}, serialized per request from a new object. */
    public static final String JSON_PATH = "/json";
    public static final String JSON_CONTENT_TYPE = "application/json";
    /** Answers after ?ms=N milliseconds without holding a thread while it waits. */
    public static final String DELAY_PATH = "/delay";
    /** Blocks a thread of the framework's blocking pool for ?ms=N milliseconds. */
    public static final String BLOCKING_PATH = "/blocking";
    /** One random row of the database's world table, through the framework's driver. */
    public static final String DB_PATH = "/db";
    /** ?n=N random rows, one statement each (QueryCount says how N is read). */
    public static final String QUERIES_PATH = "/queries";

    private Hello() {
    }

    /** True for the two paths that answer the hello world. */
    public static boolean isHelloPath(String path) {
        return ROOT_PATH.equals(path) || PLAINTEXT_PATH.equals(path);
    }

    /** The object /json serializes: one new instance per request. */
    public record Message(String message) {
        public static Message hello() {
            return new Message(BODY);
        }
    }
}
