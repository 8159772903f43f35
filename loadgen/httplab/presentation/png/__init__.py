"""The PNG charts (matplotlib), one module each (result1.png: throughput, result2.png: the
bench's latency and memory, result-cpu.png: cpu, result3.png: sweep, result4.png: fairness,
result-profile.png: profile, result-latency.png: make latency's curve), kit: the parts they
share, and charts.py: each chart of the catalogue (views/charts.py) as a PNG's bytes. Each
draws from a BenchResult only, never from live measurements; publish writes the files."""

import matplotlib

# Once, before any chart module loads: no display on benchmark hosts and CI.
matplotlib.use("Agg")
