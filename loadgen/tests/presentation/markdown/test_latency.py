"""results.md of a make latency run: the notes on host steps and undetermined rounds appear
only in a run that has them (the rest is held by the golden files)."""

from dataclasses import replace

from httplab.model import StepVerdict
from httplab.presentation.markdown.latency import render_latency_markdown

from tests.latency_sample import latency_sample_result


def test_host_steps_and_undetermined_rounds_are_explained_only_when_a_run_has_them():
    result = latency_sample_result()
    plain = render_latency_markdown(result)
    assert "Not determined" not in plain and '"host":' not in plain
    steps = (replace(result.latency.steps[0], verdict=StepVerdict.HOST),
             *result.latency.steps[1:])
    maxima = (replace(result.latency.maxima[0], rounds=(None,), host_rounds=(1,)),
              *result.latency.maxima[1:])
    text = render_latency_markdown(replace(result, latency=replace(
        result.latency, steps=steps, maxima=maxima)))
    assert '"host": the host stalled long enough' in text
    assert '"Not determined": every run of the rate' in text
    assert "not determined: the host stalled or was busy" in text
