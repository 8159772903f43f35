package httplab.armeria;

import com.linecorp.armeria.common.Flags;
import com.linecorp.armeria.common.util.TransportType;
import com.linecorp.armeria.server.Server;
import httplab.server.ConfigException;
import io.netty.channel.EventLoopGroup;
import java.util.Locale;

/**
 * TRANSPORT on Armeria, given its documented way: the flag Flags.transportType(), set by
 * the JVM option -Dcom.linecorp.armeria.transportType before Armeria reads its flags; its
 * event loop groups (the acceptor's and EventLoopGroups' workers) and the server channel
 * follow it. Armeria's flag refuses an engine that cannot start here and steps down to its
 * default with a logged warning, so the engine is checked before (one line, Armeria's
 * cause) and read back after start, where a step down stops the server too.
 */
final class ArmeriaTransport {
    static final String PROPERTY = "com.linecorp.armeria.transportType";

    private ArmeriaTransport() {
    }

    /**
     * Asks Armeria for the engine; call before any Armeria class loads, as Armeria reads the
     * option once (io_uring even counts as available only when the option names it).
     */
    static void ask(String transport) {
        System.setProperty(PROPERTY, transport);
        String cause = unavailabilityCause(transport);
        if (cause != null) {
            throw new ConfigException("TRANSPORT=" + transport + ": Armeria's " + transport
                    + " transport cannot start here: " + cause);
        }
    }

    /**
     * The engine the started server runs on: its worker event loops' (Armeria's
     * TransportType.serverChannelType, which asks the loops' Netty IoHandler), which must be
     * the one asked, as must Armeria's flag, which gave the acceptor's; otherwise
     * ConfigException naming both and Armeria's cause.
     */
    static String inUse(Server server, String asked) {
        String loops = of(server.config().workerGroup());
        String flag = Flags.transportType().lowerCasedName();
        if (!loops.equals(asked) || !flag.equals(asked)) {
            String cause = unavailabilityCause(asked);
            throw new ConfigException("TRANSPORT=" + asked + ": Armeria runs on " + flag
                    + " (event loops: " + loops + ") instead: "
                    + (cause == null ? "Armeria gave no cause" : cause));
        }
        return loops;
    }

    /** Armeria's (that is, Netty's) reason the engine cannot start here; null when it can. */
    private static String unavailabilityCause(String transport) {
        TransportType type = TransportType.valueOf(transport.toUpperCase(Locale.ROOT));
        if (type.isAvailable()) {
            return null;
        }
        return ConfigException.reasonOf(type.unavailabilityCause());
    }

    private static String of(EventLoopGroup group) {
        Class<?> channelType = TransportType.serverChannelType(group);
        for (TransportType type : TransportType.values()) {
            if (type.isAvailable() && type.serverChannelType() == channelType) {
                return type.lowerCasedName();
            }
        }
        return "unknown";
    }
}
