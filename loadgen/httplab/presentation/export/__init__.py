"""results.json's derived keys (json_results.py, latency_json.py): the JSON exporter."""
