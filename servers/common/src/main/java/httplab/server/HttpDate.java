package httplab.server;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP Date header value (RFC 9110 IMF-fixdate), formatted once and refreshed
 * by a timer, so no request pays for formatting a date.
 */
public final class HttpDate {
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    private static final long REFRESH_MILLIS = 500;
    private static volatile String current = format(ZonedDateTime.now(ZoneOffset.UTC));

    static {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "httplab-date");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(
                () -> current = format(ZonedDateTime.now(ZoneOffset.UTC)),
                REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    }

    private HttpDate() {
    }

    /** The current Date header value, at most REFRESH_MILLIS old. */
    public static String now() {
        return current;
    }

    static String format(ZonedDateTime time) {
        return IMF_FIXDATE.format(time);
    }
}
