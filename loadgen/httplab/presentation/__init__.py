"""What a user reads: exports, charts, comparisons and the servers table."""
