#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image.
# It installs bubblewrap (the sandbox student code runs in) and a Python 3.11 or
# newer with Hog kit (the wheel in kit/) and its requirements in a virtual
# environment, so that run_autograder installs nothing. AUTOGRADER_ROOT replaces
# /autograder; HOG_PIP_OPTIONS adds options to pip (e.g. --no-index --find-links DIR).
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
KIT="$ROOT/source/kit"
COURSE="$ROOT/source/course"
VENV="$ROOT/hog-venv"

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends bubblewrap ca-certificates

python=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 \
      && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  apt-get install -y -qq --no-install-recommends python3.11 python3.11-venv
  python=python3.11
fi
if ! "$python" -c 'import ensurepip' >/dev/null 2>&1; then
  version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  apt-get install -y -qq --no-install-recommends "python$version-venv"
fi

"$python" -m venv "$VENV"
wheel="$(ls "$KIT"/*.whl)"
# shellcheck disable=SC2086  # HOG_PIP_OPTIONS is a list of options
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check ${HOG_PIP_OPTIONS:-} "$wheel"
# The kit as run_autograder runs it: installed, for the course in source/course.
"$VENV/bin/python" -m grader.cli --course "$COURSE" variants
# Generate every variant's hidden cases once (from the default seed, into the
# image's cache), so that a kit that cannot fails the image's build rather than a
# student's grading; each grading then draws its own cases from a fresh seed (what every seed
# draws, and the probes of the public cases, are made here once, into the same cache).
HOG_COURSE="$COURSE" "$VENV/bin/python" -c \
  'from grader.cases import hidden_cases; from grader.spec import all_variants; [hidden_cases(v) for v in all_variants()]'
# Where the engine refuses Landlock, the files level's allowlist is a tree holding only the Python
# runtime, entered with chroot: make it now, into the image, rather than at a student's first grading.
"$VENV/bin/python" -c 'from grader.sandbox import level, namespaces, tree
if level.landlock_unavailable() and tree.unavailable(namespaces.interpreter()) is None:
    print("the sandbox'"'"'s file tree is ready")'

# >>> Close the kit to every user but root.
# A layer beside the allowlist of the files level (Landlock or the chroot tree): the kit, its virtual
# environment (which holds a copy of the kit) and its cache (the hidden cases and their signing key)
# are closed to the sandbox's uid by their permissions too. The sandbox runs the interpreter the
# environment was made from (under /usr), which stays readable.
chmod -R go-rwx "$ROOT/source"
if [ -d "$VENV" ]; then chmod -R go-rwx "$VENV"; fi
cache="${HOG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hog-kit}"
if [ -d "$cache" ]; then
  # Not the sandbox's file tree: the sandbox reads it from inside (chroot), and the cache's own mode
  # already keeps everyone else from reaching it.
  chmod go-rwx "$cache"
  if [ -d "$cache/files-tree" ]; then chmod go-rwx "$cache/files-tree"; fi
  find "$cache" -mindepth 1 -maxdepth 1 ! -name files-tree -exec chmod -R go-rwx {} +
fi
# <<< Close the kit.
