"""results.csv: one row per cell (results.py), or per step of a latency run (latency.py).
Pure: text only."""
