"""The load tools' own words: how each is asked to run (its command line) and pure readers
of what it prints. One folder per tool (wrk, h2load, oha, async-profiler); none of them runs
anything, except the stall meter (stall_meter/), itself a small process beside each run."""
