"""The error of a course config that cannot be used (one kind for every table of ``hog-course.toml``)."""

from grader.errors import SpecError


class ConfigError(SpecError):
    """The course config is not usable (exit 2): ``file:line: what is wrong (the fix)``."""
