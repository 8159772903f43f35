"""A server's CPU and memory: pure parsers, probes that read, a sampler."""
