"""Helpers run by hand (fixture capture, golden-file regeneration), never collected as tests."""
