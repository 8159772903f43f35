"""What `jfr print --json --events jdk.VirtualThreadPinned` prints, summed up: how many
times a virtual thread parked while pinned to its carrier, for how long in all and at
most, and where (the first frame of each event's stack outside the JDK).

jfr prints about 1 kB of JSON per frame of each stack, so a run pinned a hundred thousand
times prints gigabytes: the text is read as it comes, in chunks, one event at a time.
Pure: the chunks are handed in.

    {"recording": {"events": [{"type": "jdk.VirtualThreadPinned", "values": {
        "duration": "PT0.020076314S", "stackTrace": {"truncated": false, "frames": [
            {"method": {"type": {"name": "java/lang/VirtualThread", ...},
                        "name": "parkOnCarrierThread", ...}, ...}, ...]}, ...}}, ...]}}"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from httplab.loadtools.json_fields import ToolJsonError
from httplab.model import PinnedFrame, PinnedRun

TOP_FRAMES = 3
# Classes of the JDK itself, by their internal name's start: the park, the sleep, the
# socket read; the frame that names the pinning is the first one below them.
JDK_PACKAGES = ("java/", "jdk/", "sun/")
NO_FRAME_OUTSIDE_JDK = "(only JDK frames)"  # in the stack printed, or no stack at all
# java.time.Duration's toString, as jfr writes a duration: PT0S, PT0.020076314S, PT1M2.5S.
_DURATION = re.compile(r"PT(?:(?P<h>-?\d+)H)?(?:(?P<m>-?\d+)M)?(?:(?P<s>-?\d+(?:\.\d+)?)S)?")
_EVENTS_OPENING = re.compile(r'\s*\{\s*"recording"\s*:\s*\{\s*"events"\s*:\s*\[')
_OPENING_MOST = 200  # characters the opening may take, whitespace included
_BETWEEN_EVENTS = re.compile(r"[\s,]*")
# A hidden class's name ends with its address (Heavy$$Lambda/0x00007fbbf0000a08).
_HIDDEN_SUFFIX = re.compile(r"/0x[0-9a-fA-F]+$")
_DECODER = json.JSONDecoder()


class JfrJsonError(ToolJsonError):
    """jfr print's JSON that cannot be read."""


def pinned_run(chunks: Iterable[str], source: str) -> PinnedRun:
    """The pinned events of the JSON that `chunks` make up, summed; JfrJsonError naming
    the source when it is not jfr's JSON of a recording."""
    events, total_s, longest_s = 0, 0.0, 0.0
    frames: Counter[str] = Counter()
    for event in _events(chunks, source):
        values = _object(event.get("values"), source, "an event's values")
        duration_s = duration_seconds(values.get("duration"), source)
        events, total_s, longest_s = events + 1, total_s + duration_s, max(longest_s, duration_s)
        frames[first_frame_outside_jdk(values.get("stackTrace"), source)] += 1
    top = sorted(frames.items(), key=lambda item: (-item[1], item[0]))[:TOP_FRAMES]
    return PinnedRun(events, total_s * 1000, longest_s * 1000,
                     tuple(PinnedFrame(frame, count) for frame, count in top))


def duration_seconds(text: Any, source: str) -> float:
    """PT0.020076314S -> 0.020076314."""
    match = _DURATION.fullmatch(text) if isinstance(text, str) else None
    if match is None or text == "PT":
        raise JfrJsonError(source, f"an event's duration {text!r} is not an ISO-8601 one")
    hours, minutes, seconds = (float(match[part] or 0) for part in ("h", "m", "s"))
    return hours * 3600 + minutes * 60 + seconds


def first_frame_outside_jdk(stack: Any, source: str) -> str:
    """Class.method of the stack's first frame (the most recent call first) whose class
    is not the JDK's; NO_FRAME_OUTSIDE_JDK when every frame printed is."""
    if stack is None:
        return NO_FRAME_OUTSIDE_JDK
    for frame in _object(stack, source, "a stack trace").get("frames") or ():
        method = _object(_object(frame, source, "a frame").get("method"), source, "a method")
        class_name = _object(method.get("type"), source, "a method's class").get("name")
        if not isinstance(class_name, str) or not isinstance(method.get("name"), str):
            raise JfrJsonError(source, f"a frame without its class or method name: {frame!r}")
        if not class_name.startswith(JDK_PACKAGES):
            return f"{_HIDDEN_SUFFIX.sub('', class_name).replace('/', '.')}.{method['name']}"
    return NO_FRAME_OUTSIDE_JDK


def _object(value: Any, source: str, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JfrJsonError(source, f"{what} is not an object: {value!r}"[:200])
    return value


def _events(chunks: Iterable[str], source: str) -> Iterator[dict[str, Any]]:
    """Each object of recording.events, decoded as soon as its text is all there."""
    pieces = iter(chunks)
    text = ""
    while (opening := _EVENTS_OPENING.match(text)) is None:
        more = next(pieces, None)
        if more is None or len(text) > _OPENING_MOST:
            raise JfrJsonError(source, "not jfr's JSON of a recording: no recording.events")
        text += more
    position = opening.end()
    while True:
        position = _BETWEEN_EVENTS.match(text, position).end()
        if text.startswith("]", position):
            return
        try:
            event, position = _DECODER.raw_decode(text, position)
        except json.JSONDecodeError as error:
            more = next(pieces, None)
            if more is None:
                raise JfrJsonError(source, f"its events end unfinished: {error}") from None
            text, position = text[position:] + more, 0
            continue
        yield _object(event, source, "an event")
