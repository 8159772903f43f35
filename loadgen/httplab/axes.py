"""The variant axes: the settings a framework can be measured under, each taking one value
or a comma list (every combination measured, rounds interleaved), and the variant key
that names a framework under its values (netty, armeria@default, netty@jdk17,
tomcat@virtual, netty+profiled, netty+replica2). The one place that says each axis's
values, its default, how its value shows in a key, and where a run's settings record it:
adding an axis is an entry here and its realisation in the manifest and the runner; no
renderer names an axis. Pure; a leaf."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Axis:
    """One variant axis. A value is text as the setting takes it ("default", "17", "1").
    Its part of a key is mark + token, the token being the value with `prefix` before it;
    the default value has no part, so that a key names only what differs from it."""

    setting: str  # the make variable: SETTINGS, JDK, EXECUTOR, TRANSPORT, PROTOCOL, PROFILE
    values: tuple[str, ...]  # accepted, in their usual order
    default: str
    mark: str  # "@" or "+": what starts the axis's part of a key
    prefix: str = ""  # before the value in the token: "jdk" makes jdk17
    tokens: tuple[tuple[str, str], ...] = ()  # value -> token where not prefix + value
    settings_field: str = ""  # the Settings field that records the run's values
    accepts: str = ""  # what the setting takes, for its one-line error
    # The make variable's line in make help and docs/settings.md; "" for an axis no make
    # variable of make bench sets (REPLICA, make calibrate's own).
    meaning: str = ""
    # An empty setting leaves each framework at its own value (ServerManifest.own_value).
    own_when_empty: bool = False

    def parse(self, text: str) -> tuple[str, ...] | None:
        """One value or a comma list, in the order given, each once; None when any item
        is not a value of this axis, or an item repeats. () for an empty text where each
        framework takes its own value."""
        if self.own_when_empty and not text.strip():
            return ()
        items = [item.strip() for item in text.split(",")]
        if not items or any(item not in self.values for item in items):
            return None
        return tuple(items) if len(set(items)) == len(items) else None

    def recorded(self, settings: object | None) -> tuple[str, ...]:
        """The values a run's settings (model.Settings) record for this axis, as text, in
        the order asked; the default alone for a run without them (older, or none)."""
        values = getattr(settings, self.settings_field, ()) if settings is not None else ()
        return tuple(_text(value) for value in values) or (self.default,)

    def token(self, value: str) -> str | None:
        """The key part's token for a value; None for the default (no part)."""
        if value == self.default:
            return None
        return dict(self.tokens).get(value, f"{self.prefix}{value}")

    def value_of_token(self, token: str) -> str | None:
        """The value a token names on this axis, or None when it is not this axis's."""
        for value in self.values:
            if value != self.default and self.token(value) == token:
                return value
        return None


# "original": the write-up's worker counts (each manifest's workers); "default": each
# framework's own documented default for this machine's CPUs (each manifest's
# default_workers, with its source).
SETTINGS = Axis("SETTINGS", ("original", "default"), "original", "@",
                settings_field="worker_settings",
                accepts="original, default or both, comma-separated",
                meaning="worker settings: original (the write-up's), default (each framework's "
                        "documented default for this host), or both")
# 25: the current LTS (September 2025), which a team adopting a framework now deploys.
JDK = Axis("JDK", ("17", "21", "25"), "25", "@", prefix="jdk", settings_field="jdks",
           accepts="17, 21 or 25 (the Java release every JVM server runs on), or a comma "
                   "list of them such as 17,25 (each framework on each)",
           meaning="the Java release every JVM server runs on: 17, 21 or 25 (the current "
                   "LTS), or a comma list such as 17,25 (each framework on each, interleaved)")
# pool: the framework's pool for blocking work, as the write-up configured it; virtual: a
# virtual thread per task (Java 21+). Left empty, each framework runs its own way: the
# first of its manifest's executors (the pool where it has one; Helidon's virtual threads).
POOL, VIRTUAL = "pool", "virtual"
EXECUTOR = Axis("EXECUTOR", (POOL, VIRTUAL), POOL, "@", settings_field="executors",
                accepts="pool (the framework's pool for blocking work), virtual (a virtual "
                        "thread per task, Java 21+), or pool,virtual (each framework both "
                        "ways), each once; empty: each framework its own way",
                meaning="where blocking work runs: pool (the framework's pool, the write-up's "
                        "way), virtual (a virtual thread per task, Java 21+), or pool,virtual "
                        "(each framework both ways); empty: each framework its own way (its "
                        "pool; Helidon's virtual threads)",
                own_when_empty=True)
# The I/O engine under the framework: Java's NIO selector, Linux's epoll or io_uring through
# Netty's native transports. Left empty (the default, no part in a key), each framework runs
# on its own: the first of its manifest's transports; a value asked is named in the key even
# where it is that one (netty@epoll), so that a run comparing engines says each.
NIO, EPOLL, IO_URING = "nio", "epoll", "io_uring"
OWN_TRANSPORT = ""
TRANSPORT = Axis("TRANSPORT", (NIO, EPOLL, IO_URING), OWN_TRANSPORT, "@",
                 settings_field="transports",
                 accepts="nio, epoll or io_uring (the I/O engine under the framework), or a "
                         "comma list of them such as epoll,io_uring (each framework on each), "
                         "each once; empty: each framework on its own",
                 meaning="the I/O engine under each framework: nio (Java's selector), epoll or "
                         "io_uring (Netty's native transports), or a comma list such as "
                         "epoll,io_uring (each framework on each); empty: each framework on its "
                         "own",
                 own_when_empty=True)
# What the server speaks on its port: plaintext HTTP/1.1 (the write-up's), HTTP/1.1 over TLS,
# HTTP/2 in cleartext with prior knowledge, and HTTP/2 over TLS negotiated by ALPN. The TLS
# ones use a certificate the lab makes for the run.
H1, H1_TLS, H2C, H2 = "h1", "h1-tls", "h2c", "h2"
PROTOCOL = Axis("PROTOCOL", (H1, H1_TLS, H2C, H2), H1, "@", settings_field="protocols",
                accepts="h1 (plaintext HTTP/1.1), h1-tls (HTTP/1.1 over TLS), h2c (HTTP/2 in "
                        "cleartext, prior knowledge) or h2 (HTTP/2 over TLS, by ALPN), or a "
                        "comma list of them such as h1,h2 (each framework on each), each once",
                meaning="what each server speaks: h1 (plaintext HTTP/1.1, the write-up's), "
                        "h1-tls (HTTP/1.1 over TLS), h2c (HTTP/2 in cleartext, prior knowledge) "
                        "or h2 (HTTP/2 over TLS, by ALPN), or a comma list such as h1,h2 (each "
                        "server on each); TLS with a certificate made for the run")
TLS_PROTOCOLS = frozenset((H1_TLS, H2))
HTTP2_PROTOCOLS = frozenset((H2C, H2))
PROFILE = Axis("PROFILE", ("0", "1"), "0", "+", tokens=(("1", "profiled"),),
               settings_field="profile",
               accepts="1 (async-profiler in every JVM server during its measured runs), "
                       "0 (none) or 0,1 (each framework both ways)",
               meaning="1: async-profiler in every JVM server during its measured runs (a "
                       "flame graph and collapsed stacks per run in raw/); 0,1: each framework "
                       "measured both ways, interleaved; 0: none")
# make calibrate's A/A: the same server started, warmed and measured again as a second
# variant, so that the ratio of two identical variants shows the host's own noise. Not a
# setting of make bench; "2" alone has a part in a key (netty+replica2).
REPLICA = Axis("REPLICA", ("1", "2"), "1", "+", prefix="replica", settings_field="replicas",
               accepts="1 (the server once) or 1,2 (make calibrate: the server twice, an A/A)")
# In key order: a key's parts follow this order.
AXES = (SETTINGS, JDK, EXECUTOR, TRANSPORT, PROTOCOL, PROFILE, REPLICA)
AXIS_BY_SETTING = {axis.setting: axis for axis in AXES}
_PART = re.compile(r"([@+])([^@+]+)")


@dataclass(frozen=True)
class Variant:
    """One framework under one value of each axis (the axis's default where unnamed), and
    the key the results name it by: the folder, then each non-default value's part in
    AXES order. The one place that builds a key from its parts and reads them back."""

    name: str  # the framework's folder: servers/<name>
    values: tuple[tuple[str, str], ...] = ()  # (axis setting, value), non-default only

    @classmethod
    def of(cls, name: str, **values: str) -> Variant:
        """Variant.of("netty", JDK="17"): the named axes' values, defaults dropped."""
        return cls(name, _normal(values))

    @property
    def key(self) -> str:
        parts = []
        for axis in AXES:
            token = axis.token(self.value(axis.setting))
            parts += [] if token is None else [f"{axis.mark}{token}"]
        return self.name + "".join(parts)

    @classmethod
    def of_key(cls, key: str) -> Variant:
        """netty@jdk17+profiled -> Variant("netty", JDK=17, PROFILE=1). ValueError for a
        part no axis knows."""
        name = re.split(r"[@+]", key, maxsplit=1)[0]
        values = {}
        for mark, token in _PART.findall(key[len(name):]):
            axis = next((one for one in AXES if one.mark == mark
                         and one.value_of_token(token) is not None), None)
            if axis is None:
                raise ValueError(f"{key!r}: {mark}{token} is no variant axis's value")
            values[axis.setting] = axis.value_of_token(token)
        return cls(name, _normal(values))

    def value(self, setting: str) -> str:
        """Its value on an axis (SETTINGS, JDK, EXECUTOR, TRANSPORT, PROTOCOL, PROFILE,
        REPLICA)."""
        return dict(self.values).get(setting, AXIS_BY_SETTING[setting].default)

    @property
    def axes(self) -> dict[str, str]:
        """Its value on every axis: {"SETTINGS": "default", "JDK": "25", "PROFILE": "1"}."""
        return {axis.setting: self.value(axis.setting) for axis in AXES}

    def on_axis(self, setting: str, value: str) -> Variant:
        """The same framework with one axis at another value."""
        if setting not in AXIS_BY_SETTING:
            raise ValueError(f"not a variant axis: {setting!r}")
        return replace(self, values=_normal({**dict(self.values), setting: value}))


def _text(value: object) -> str:
    """A recorded value as the setting says it: PROFILE's booleans are 1 and 0."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def _normal(values: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """Non-default values only, in AXES order, so equal variants compare equal."""
    return tuple((axis.setting, values[axis.setting]) for axis in AXES
                 if values.get(axis.setting, axis.default) != axis.default)
