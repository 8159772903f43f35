"""REPEAT=auto under "Variants compared" in results.md: why the run ran its rounds, and each
pair's precision reached, those that never narrowed first, named with their spread."""

from __future__ import annotations

from httplab.presentation.markdown.variants import variants_section
from httplab.results.adaptive_rounds import rounds_reached
from httplab.results.store import read_results

from tests.variants_sample import PROFILE_RUN, profile_run_as_auto


def test_a_run_that_hit_max_repeat_says_so_and_names_each_wide_pair_with_its_spread():
    result = profile_run_as_auto(precision=0.01)
    lines = variants_section(result)
    reached = rounds_reached(result)
    wide = len(reached.not_narrowed)
    assert wide >= 1
    assert (f"ran 3 rounds: MAX_REPEAT reached with {wide} pair{'s' if wide > 1 else ''} "
            "wider than ±1.0 %.") in "\n".join(lines)
    bullets = [line for line in lines if line.startswith("- ")]
    assert len(bullets) == len(reached.pairs)
    assert all("never narrowed to ±1.0 %: its rounds' ratios spread by" in line
               for line in bullets[:wide])


def test_a_run_whose_pairs_all_narrowed_says_so_and_gives_each_ones_precision():
    result = profile_run_as_auto(precision=0.99)
    text = "\n".join(variants_section(result))
    assert "ran 3 rounds: no more once every pair's interval was within ±99.0 %." in text
    assert "never narrowed" not in text and " over 3 rounds" in text


def test_a_fixed_repeat_adds_nothing():
    assert "REPEAT=auto" not in "\n".join(variants_section(read_results(PROFILE_RUN)))
