"""results.md (results.py dispatches on the run's kind to a bench's tables or a latency
run's, latency.py), and the README's servers table (readme_table.py). Pure: text only."""
