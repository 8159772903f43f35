package httplab.netty;

import httplab.server.netty.NettyEngine;

/**
 * Whether io_uring can start in this process, as Netty finds it: the lab runs this once
 * before any load of a TRANSPORT=io_uring run (in the server's container, under the seccomp
 * profile the cells would use), and prints one line: "io_uring available", or
 * "io_uring unavailable: " and Netty's cause; exit status 0 or 1.
 */
public final class IoUringProbe {
    private IoUringProbe() {
    }

    public static void main(String[] args) {
        Throwable cause = NettyEngine.IO_URING.unavailabilityCause();
        if (cause == null) {
            System.out.println("io_uring available");
            return;
        }
        System.out.println("io_uring unavailable: " + cause);
        System.exit(1);
    }
}
