"""httplab: a load-test lab for JVM HTTP server frameworks, driven by wrk."""

__version__ = "0.1.0"
