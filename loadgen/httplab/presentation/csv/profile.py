"""results.csv's profile columns (PROFILE=1), last in every row of a run with profiles:
each cell's (or make latency step's) event, samples, each layer's share (a fraction, in the
layers' order), its consistency check and its flame graphs (presentation/views/profile_figures.py).
Pure."""

from __future__ import annotations

import re

from httplab.presentation.views.profile_figures import (Profiled, carries_profile, cell_check,
                                                        cell_events, cell_samples, flame_graphs,
                                                        layer_shares)

SHARE_PREFIX = "profile_share_"


def profile_header(layers: tuple[str, ...]) -> tuple[str, ...]:
    """profile_event, profile_samples, profile_share_kernel, ..., profile_check,
    profile_flame_graphs."""
    return ("profile_event", "profile_samples", *(SHARE_PREFIX + column_name(layer)
                                                  for layer in layers),
            "profile_check", "profile_flame_graphs")


def column_name(layer: str) -> str:
    """A layer as a column's name: "JDK" -> "jdk", "JIT compiler" -> "jit_compiler"."""
    return re.sub(r"[^a-z0-9]+", "_", layer.lower()).strip("_")


def profile_values(cell: Profiled, layers: tuple[str, ...]) -> tuple[str, ...]:
    """The cell's (or step's) values under profile_header; empty without profiles."""
    if not carries_profile(cell):
        return ("",) * len(profile_header(layers))
    samples = cell_samples(cell)
    shares = tuple("" if share is None else f"{share:.4f}"
                   for share in layer_shares(cell, layers))
    return ("/".join(cell_events(cell)), str(samples), *shares, cell_check(cell),
            " ".join(path for _, path in flame_graphs(cell)))
