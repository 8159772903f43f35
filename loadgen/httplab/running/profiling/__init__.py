"""PROFILE=1: async-profiler in a JVM server during exactly its measured runs."""
