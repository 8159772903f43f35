"""Reading wrk: its command line, its printed report and done.lua's JSON. Pure."""
