"""The charts a run is drawn as, one module each (result1.png: throughput, result2.png:
latency, result-cpu.png: cpu, result3.png: sweep, result4.png: fairness), and kit: the parts
they share. Each draws from a BenchResult only, never from live measurements."""

import matplotlib

# Once, before any chart module loads: no display on benchmark hosts and CI.
matplotlib.use("Agg")
