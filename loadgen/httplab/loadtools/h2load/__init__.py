"""Reading h2load: its command line, its printed report and the socket readings that
fairness.sh takes during its run. Pure."""
