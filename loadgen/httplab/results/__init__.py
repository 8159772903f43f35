"""A run's results: raw files collected into the model, stored, summarised."""
