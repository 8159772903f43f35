"""Reading oha (fixed-rate runs): its command line and its JSON summary. Pure."""
