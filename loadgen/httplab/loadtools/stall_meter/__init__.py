"""The stall meter: a small process beside each measured run that sleeps a fixed short
interval in a loop and records how late each wake-up was (jHiccup's idea, with a
log-linear histogram like HdrHistogram's). A wake-up that comes late says the host did not
run a ready process on time: the CPUs were taken by other work, or the machine itself was
descheduled, and the server and the load tool were as likely frozen as the meter was.

Why a Python module run as its own process (`python3 -m httplab.loadtools.stall_meter`),
and not a few lines of C: it needs no build step and no compiler, and it runs unchanged
wherever the harness runs (the host) and wherever the wrk image runs (each load-generator
engine: the image has python3 and this package). Its cost stays under 1 % of a core for
each CPU metered, at its interval of 10 ms (measured on the lab's 2-core VM:
docs/method.md); C would cost about half as much, not enough to pay for a build on every
engine. Never in the server's
process: a stalled server must not be able to hide its host's stalls.

histogram.py: the buckets (stdlib only); per_cpu.py: a meter per CPU, each a child
process pinned there; steal.py: each CPU's steal time from /proc/stat; __main__.py: the
process; report.py: the pure reader of the JSON it writes, into the model's HostStalls,
pooling every CPU's and place's record (this host's and the load generators' engines')
into one that keeps each CPU's own."""
