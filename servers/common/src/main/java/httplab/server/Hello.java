package httplab.server;

import java.nio.charset.StandardCharsets;

/** The response every httplab server sends on GET / and GET /plaintext. */
public final class Hello {
    public static final String BODY = "Hello, World!";
    public static final byte[] BODY_BYTES = BODY.getBytes(StandardCharsets.US_ASCII);
    public static final String CONTENT_TYPE = "text/plain; charset=UTF-8";
    public static final String ROOT_PATH = "/";
    public static final String PLAINTEXT_PATH = "/plaintext";

    private Hello() {
    }

    /** True for the two paths that answer the hello world; everything else is 404. */
    public static boolean isHelloPath(String path) {
        return ROOT_PATH.equals(path) || PLAINTEXT_PATH.equals(path);
    }
}
