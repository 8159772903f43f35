"""A make latency run's charts: latency against the offered rate (as result-latency.png,
both axes log, the target dotted; p99 drawn, p50 and p99.9 a click away), and each server's
max sustainable rate. A point is the median over the rounds that ran its rate, hollow when
the rate broke in one of them; a step without latency leaves no point."""

from __future__ import annotations

from httplab.model import BenchResult, SustainedRate
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import (FAILED_COLOR, FILLED, HATCH, HOLLOW, base_layout,
                                               drawn, hover_lines, number, server_trace, table)
from httplab.presentation.views.latency_curve import (PERCENTILE_NAMES, CurvePoint, curve_points,
                                                      ordered_servers)
from httplab.presentation.views.latency_figures import rate_steps
from httplab.presentation.wording.latency import (broke_at_text, latency_curve_title, max_rate_text,
                                                  rate_text, rounds_text, server_label, slo_text,
                                                  tool_note)

SHOWN = PERCENTILE_NAMES.index("p99")  # the percentile drawn at first
MAX_COLUMNS = ("Framework", "Max sustainable rate", "Each round", "What broke it")


def latency_run_charts(result: BenchResult) -> list[ChartSpec]:
    return [latency_curve_chart(result), max_rate_chart(result)]


def latency_curve_chart(result: BenchResult) -> ChartSpec:
    servers = ordered_servers(result)
    curves = {server: curve_points(rate_steps(result, server)) for server in servers}
    traces = drawn([_curve_trace(result, server, curves[server]) for server in servers])
    target_ms = result.latency.slo_p99_us / 1000
    layout = base_layout("offered rate (requests a second, log scale)",
                         "latency from the due time (ms, log scale)",
                         updatemenus=[_percentile_menu(traces, curves)])
    layout["xaxis"] |= {"type": "log"}
    layout["margin"] |= {"b": 90}  # room for the percentile's buttons under the axis
    layout["yaxis"] = layout["yaxis"] | {"type": "log", "rangemode": "normal"}
    layout["shapes"] = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": target_ms,
                         "y1": target_ms, "line": {"color": FAILED_COLOR, "dash": "dot"}}]
    names = PERCENTILE_NAMES
    rows = [(server_label(result, server), rate_text(point.rate),
             *(number(ms, 2) for ms in point.latency_ms), "yes" if point.held else "no")
            for server in servers for point in curves[server]]
    return ChartSpec(
        "latency-curve", latency_curve_title(result).replace("\n", "; "),
        f"{tool_note(result)} Dotted: the target, {slo_text(result.latency.slo_p99_us)}. "
        f"The menu switches between {', '.join(names)}. A hollow point broke the target in "
        "a round (results.md says why).",
        {"data": traces, "layout": layout},
        table(("Framework", "Offered rate (req/s)", *(f"{n} (ms)" for n in names),
               "Held in every round"), rows))


def _curve_trace(result: BenchResult, server: str, points: tuple[CurvePoint, ...]) -> dict:
    hover = [hover_lines(f"offered: {rate_text(point.rate)} req/s",
                         *(f"{name}: {number(ms, 2, 'ms')}" for name, ms
                           in zip(PERCENTILE_NAMES, point.latency_ms)),
                         "held" if point.held else "broke the target in a round")
             for point in points]
    trace = server_trace(result, server, "scatter", hover, mode="lines+markers",
                         x=[point.rate for point in points],
                         y=[point.latency_ms[SHOWN] for point in points])
    trace["name"] = server_label(result, server)
    trace["marker"] |= {"size": 8, "symbol": [FILLED if point.held else HOLLOW
                                              for point in points]}
    return trace


def _percentile_menu(traces: list[dict], curves: dict[str, tuple[CurvePoint, ...]]) -> dict:
    """Buttons that redraw every curve drawn at another percentile."""
    shown = [curves[trace["legendgroup"]] for trace in traces]
    buttons = [{"label": name, "method": "restyle",
                "args": [{"y": [[point.latency_ms[index] for point in points]
                                for points in shown]}]}
               for index, name in enumerate(PERCENTILE_NAMES)]
    return {"type": "buttons", "direction": "right", "active": SHOWN, "buttons": buttons,
            "x": 0, "xanchor": "left", "y": -0.2, "yanchor": "top", "showactive": True}


def max_rate_chart(result: BenchResult) -> ChartSpec:
    maxima = {rate.server: rate for rate in result.latency.maxima}
    servers = [server for server in ordered_servers(result) if server in maxima]
    traces = [_max_trace(result, maxima[server]) for server in servers]
    none_held = [server_label(result, s) for s in servers if maxima[s].value is None]
    layout = base_layout("", "requests a second", barmode="relative")
    return ChartSpec(
        "max-rate", f"Max sustainable rate at {slo_text(result.latency.slo_p99_us)} "
        "(higher is better)",
        "The highest offered rate that held the target in every round; a hatched bar is "
        "only a lower bound: the load tool's limit came first."
        + (f" No rate held: {', '.join(none_held)}." if none_held else ""),
        {"data": drawn(traces), "layout": layout},
        table(MAX_COLUMNS, [(server_label(result, rate.server), max_rate_text(rate),
                             rounds_text(rate), broke_at_text(rate))
                            for rate in (maxima[s] for s in servers)]))


def _max_trace(result: BenchResult, rate: SustainedRate) -> dict:
    hover = hover_lines(max_rate_text(rate), f"each round: {rounds_text(rate)}"
                        if len(rate.rounds) > 1 else None, f"broke at: {broke_at_text(rate)}")
    trace = server_trace(result, rate.server, "bar", [hover],
                         x=[server_label(result, rate.server)], y=[rate.value])
    trace["marker"]["pattern"] = {"shape": HATCH if rate.limited_by_tool else ""}
    trace["name"] = server_label(result, rate.server)
    return trace
