"""Checking a server before load: its ready line, readiness, conformance."""
