"""The charts a run is drawn as, one module each."""
