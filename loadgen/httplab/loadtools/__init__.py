"""The load tools' own words: how each is asked to run (its command line) and pure readers
of what it prints. One folder per tool (wrk, h2load, and oha for the coming fixed-rate runs); none of them runs anything."""
