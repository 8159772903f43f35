"""Two runs compared: a bench cell by cell (bench.py), a latency run server by server
(latency.py), and which of the two a pair of runs gets (runs.py). Pure."""
