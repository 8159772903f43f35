package httplab.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The run's TLS files, which the lab makes for each run (a throwaway CA signs the server's
 * certificate): TLS_CERT, the server's certificate chain as PEM, and TLS_KEY, its private key
 * as unencrypted PKCS#8 PEM. Both are required, and must be readable, for a protocol over TLS.
 */
public record TlsFiles(Path certificate, Path key) {
    public static final String CERT_VARIABLE = "TLS_CERT";
    public static final String KEY_VARIABLE = "TLS_KEY";

    /** The files for a TLS protocol; null for one without TLS. */
    static TlsFiles fromMap(Map<String, String> env, String protocol) {
        if (!ServerConfig.usesTls(protocol)) {
            return null;
        }
        return new TlsFiles(readable(env, CERT_VARIABLE, protocol), readable(env, KEY_VARIABLE, protocol));
    }

    private static Path readable(Map<String, String> env, String variable, String protocol) {
        String raw = env.getOrDefault(variable, "").strip();
        if (raw.isEmpty()) {
            throw new ConfigException("PROTOCOL=" + protocol + " needs " + variable
                    + ": the PEM file the lab makes for the run");
        }
        Path path = Path.of(raw);
        if (!Files.isReadable(path)) {
            throw new ConfigException(variable + "=" + raw + ": no such readable file");
        }
        return path;
    }
}
