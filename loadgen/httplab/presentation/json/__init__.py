"""results.json: its exporter (results.py), a thin call to the file's one owner,
results/results_json/."""
