"""TRANSPORT=io_uring's one try before any load: Netty's IoUringProbe run where the servers
run (a throwaway container of the Netty image under the engine's seccomp profile, then the
one servers/seccomp/ ships; BACKEND=local: this host), what it printed read apart from
running it (probe.py, pure), and the try itself (trial.py)."""
