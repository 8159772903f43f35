"""The JVM's own flight recorder (JFR), as the lab asks it to record virtual threads pinned
to their carriers (EXECUTOR=virtual): its jcmd commands, the host's `jfr print` and a
reader of what that prints. Pure."""
