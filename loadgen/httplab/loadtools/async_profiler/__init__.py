"""Reading async-profiler (PROFILE=1): its collapsed stacks and the names of their frames. Pure."""
