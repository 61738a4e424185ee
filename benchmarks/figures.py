"""What a benchmark measured, kept as a page of the documentation.

Each benchmark ends with ``recorded(main)``. Given ``--docs`` (``python benchmarks/isolation.py --docs``),
it runs as usual and then writes ``docs/benchmarks/<name>.md``: everything it printed, the command that
printed it, the date, the machine (system, processor, cores, load average, Python) and the kit's commit.
So a figure on the site is one the code measured; to bring a page up to date, run its benchmark again.

``python benchmarks/figures.py`` writes a "not yet measured" page for each benchmark that has none. A page
may keep text of its own written by hand below a line ``KEPT``: a run rewrites the part above it only.
"""

from __future__ import annotations

import ast
import io
import os
import platform
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "benchmarks"
FLAG = "--docs"
KEPT = "<!-- kept: benchmarks/figures.py rewrites the part above this line and leaves the rest as it is -->"


class _Tee(io.TextIOBase):
    """Standard output that also keeps what passes through it."""

    def __init__(self, stream):
        self.stream, self.kept = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name):   # encoding, fileno, isatty: the real stream's
        return getattr(self.stream, name)


def recorded(main: Callable[[], int | None]) -> None:
    """Run a benchmark's ``main`` and exit with its status; with ``--docs``, then write its page."""
    script = Path(main.__code__.co_filename)
    if FLAG not in sys.argv[1:]:
        if {"-h", "--help"} & set(sys.argv[1:]):
            _help_after(script)
        sys.exit(main())
    sys.argv.remove(FLAG)   # the benchmark's own options never see it
    command = " ".join(["python", f"benchmarks/{script.name}", *map(shlex.quote, sys.argv[1:]), FLAG])
    before, started, clock = os.getloadavg(), datetime.now(timezone.utc), time.perf_counter()
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    try:
        status = main()
    finally:
        sys.stdout = tee.stream
    seconds = time.perf_counter() - clock
    page = write_page(script, tee.kept.getvalue(), command=command, started=started, seconds=seconds,
                      load=(before[0], os.getloadavg()[0]), status=status or 0)
    print(f"wrote {page.relative_to(ROOT)}")
    sys.exit(status)


def _help_after(script: Path) -> None:
    """``--help`` names ``--docs`` too (the benchmark's parser prints its own options, then exits)."""
    import atexit
    atexit.register(print, f"\n{FLAG}: also write docs/benchmarks/{script.stem}.md from what this run prints "
                           "(benchmarks/figures.py)")


def summary(script: Path) -> str:
    """The first line of a benchmark's docstring, read without importing it."""
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _machine() -> str:
    cores = os.cpu_count()
    model = ""
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo", encoding="utf-8")
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        model = platform.processor()
    return (f"{platform.system()} {platform.release()} {platform.machine()}; {model or 'processor unknown'}; "
            f"{cores} cores; Python {platform.python_version()}")


def _commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              timeout=30).stdout.strip()
    try:
        commit = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--", "grader", "benchmarks", "specs")
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    if not commit:
        return "unknown (not a git checkout)"
    return f"`{commit}`" + (" with uncommitted changes to grader/, benchmarks/ or specs/" if changed else "")


def _header(script: Path) -> list[str]:
    return [f"# {script.name}", "", f"<!-- Written by benchmarks/figures.py: run `python benchmarks/{script.name} "
            f"{FLAG}` again rather than editing. -->", "", summary(script), ""]


def write_page(script: Path, printed: str, *, command: str, started: datetime, seconds: float,
               load: tuple[float, float], status: int) -> Path:
    lines = _header(script) + [
        "| | |", "|---|---|",
        f"| command | `{command}` |",
        f"| measured | {started:%Y-%m-%d %H:%M} UTC, in {seconds:.0f} s |",
        f"| machine | {_machine()} |",
        f"| load average | {load[0]:.2f} at the start, {load[1]:.2f} at the end |",
        f"| kit | commit {_commit()} |",
    ]
    if status:
        lines.append(f"| exit status | {status} (a check of the benchmark failed: see below) |")
    lines += ["", "What it printed:", "", "```text", printed.rstrip("\n").replace("```", "'''"), "```", ""]
    PAGES.mkdir(parents=True, exist_ok=True)
    page = PAGES / f"{script.stem}.md"
    earlier = page.read_text(encoding="utf-8") if page.exists() else ""
    if KEPT in earlier:
        lines += [KEPT + earlier.split(KEPT, 1)[1]]
    page.write_text("\n".join(lines), encoding="utf-8")
    return page


def benchmarks() -> list[Path]:
    """Every benchmark script (each ends with ``recorded(main)``)."""
    return sorted(path for path in Path(__file__).parent.glob("*.py")
                  if path.name != Path(__file__).name and "recorded(main)" in path.read_text(encoding="utf-8"))


def main() -> None:
    """A "not yet measured" page for each benchmark without a page."""
    for script in benchmarks():
        page = PAGES / f"{script.stem}.md"
        if page.exists():
            continue
        PAGES.mkdir(parents=True, exist_ok=True)
        page.write_text("\n".join(_header(script) + [
            f"Not yet measured: run `python benchmarks/{script.name} {FLAG}`.", ""]), encoding="utf-8")
        print(f"wrote {page.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
