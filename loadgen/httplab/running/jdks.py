"""The JDKs on this host, each its own JAVA_HOME (BACKEND=local, and `make jars`), found
by the JAVA_VERSION of `<home>/release`, in this order: the lab's own (`make jdks`,
scripts/host-jdks.sh, in .tools/jdks/<N>), then /usr/lib/jvm/*, then JAVA_HOME. Pure but
for the listing of those folders and the reading of their release files.

    python3 -m httplab.running.jdks 21     JDK 21's JAVA_HOME, or one line on how to get it
    python3 -m httplab.running.jdks 21+    the newest JDK 21 or later's"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from httplab.axes import JDK
from httplab.manifest import ServerManifest
from httplab.paths import DEFAULT_REPO

LAB_JDKS = Path(".tools") / "jdks"  # where `make jdks` puts its JAVA_HOMEs, by feature version
SYSTEM_JVMS = Path("/usr/lib/jvm")  # Debian's and Ubuntu's packages install here
RELEASE_FILE = "release"
MAKE_JDKS = "`make jdks`"
DEFAULT_JDK = int(JDK.default)  # the JDK setting's default (httplab/axes.py)
# How to get each JDK the lab knows, for the one line a missing one stops with.
PACKAGES = {17: "openjdk-17-jdk-headless (Debian 12, Ubuntu 22.04 and 24.04)",
            21: f"openjdk-21-jdk-headless (Debian 13, Ubuntu 24.04), or {MAKE_JDKS}",
            25: f"openjdk-25-jdk-headless (Debian 13, Ubuntu 24.04), or {MAKE_JDKS}"}


def server_jdk(manifest: ServerManifest) -> int:
    """The JDK a server's variant runs on (its JDK axis's value)."""
    return int(manifest.jdk)


class JdkNotFound(Exception):
    """No JAVA_HOME of the asked JDK on this host; the message is one line."""


def parse_release(text: str) -> dict[str, str]:
    """A JDK's release file: KEY="value" lines, the quotes taken off. Pure."""
    values = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip():
            values[name.strip()] = value.strip().strip('"')
    return values


def feature_version(java_version: str) -> int | None:
    """The feature release of a JAVA_VERSION: "25.0.5" -> 25, "21" -> 21, "1.8.0_392" -> 8,
    "26-ea" -> 26; None when it starts with no number. Pure."""
    match = re.match(r"(?:1\.(?=\d))?(\d+)", java_version.strip())
    return int(match.group(1)) if match else None


def home_version(home: Path) -> int | None:
    """The feature version a JAVA_HOME declares, if it is one (a release file and bin/java)."""
    try:
        release = parse_release((home / RELEASE_FILE).read_text())
    except OSError:
        return None
    if not (home / "bin" / "java").is_file():
        return None
    return feature_version(release.get("JAVA_VERSION", ""))


def candidate_homes(repo: Path, jvm_dir: Path = SYSTEM_JVMS,
                    java_home: str | None = None) -> list[Path]:
    """Where JDKs are looked for, first found first: the lab's, the system's, JAVA_HOME."""
    homes = [*_subfolders(repo / LAB_JDKS), *_subfolders(jvm_dir)]
    return homes + ([Path(java_home)] if java_home else [])


def _subfolders(folder: Path) -> list[Path]:
    """The folders in folder, links resolved (Debian's java-1.17.0-openjdk-amd64 is a link
    to java-17-openjdk-amd64: the real one is named)."""
    try:
        return sorted({path.resolve() for path in folder.iterdir() if path.is_dir()})
    except OSError:
        return []


def find_jdks(homes: Iterable[Path]) -> dict[int, Path]:
    """Each feature version's first JAVA_HOME among homes."""
    found: dict[int, Path] = {}
    for home in homes:
        version = home_version(home)
        if version is not None:
            found.setdefault(version, home)
    return found


def not_found_message(jdk: int, at_least: bool = False) -> str:
    """The one line a missing JDK stops with, naming how to get it."""
    wanted = f"JDK {jdk}{' or later' if at_least else ''}"
    how = PACKAGES.get(jdk, f"a JDK {jdk} package")
    return f"{wanted} not found on this host: install {how}"


def host_jdks(repo: Path = DEFAULT_REPO, jvm_dir: Path = SYSTEM_JVMS,
              environ: dict[str, str] | None = None) -> dict[int, Path]:
    """Every JDK this host has, by feature version, found in the order above."""
    java_home = (os.environ if environ is None else environ).get("JAVA_HOME")
    return find_jdks(candidate_homes(repo, jvm_dir, java_home))


def java_home(jdk: int, repo: Path = DEFAULT_REPO, jvm_dir: Path = SYSTEM_JVMS,
              environ: dict[str, str] | None = None) -> Path:
    """JDK `jdk`'s JAVA_HOME on this host; JdkNotFound (one line) when it has none."""
    home = host_jdks(repo, jvm_dir, environ).get(jdk)
    if home is None:
        raise JdkNotFound(not_found_message(jdk))
    return home


def java_executable(jdk: int, repo: Path = DEFAULT_REPO, jvm_dir: Path = SYSTEM_JVMS,
                    environ: dict[str, str] | None = None) -> Path:
    """JDK `jdk`'s java (the `java` of `java -jar`); JdkNotFound as java_home."""
    return java_home(jdk, repo, jvm_dir, environ) / "bin" / "java"


def newest_java_home(at_least: int, repo: Path = DEFAULT_REPO, jvm_dir: Path = SYSTEM_JVMS,
                     environ: dict[str, str] | None = None) -> Path:
    """The JAVA_HOME of the newest JDK `at_least` or later; JdkNotFound when none."""
    found = host_jdks(repo, jvm_dir, environ)
    newer = [version for version in found if version >= at_least]
    if not newer:
        raise JdkNotFound(not_found_message(at_least, at_least=True))
    return found[max(newer)]


def main(arguments: list[str]) -> int:
    """`21`: JDK 21's JAVA_HOME; `21+`: the newest 21 or later's. Exit 2 with one line."""
    if len(arguments) != 1 or not arguments[0].rstrip("+").isdigit():
        print("usage: python3 -m httplab.running.jdks N|N+", file=sys.stderr)
        return 2
    wanted = arguments[0]
    try:
        home = (newest_java_home(int(wanted[:-1])) if wanted.endswith("+")
                else java_home(int(wanted)))
    except JdkNotFound as error:
        print(f"httplab: {error}", file=sys.stderr)
        return 2
    print(home)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
