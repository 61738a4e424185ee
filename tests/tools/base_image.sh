#!/usr/bin/env bash
# A Debian base image for the container tests, made without an image registry: debootstrap a minimal
# bookworm with Python (as a course's grader image has it), then import it into the local Docker engine.
# Usage: base_image.sh [IMAGE]  (default hog-kit-test-base:bookworm); does nothing if the image exists.
set -euo pipefail
image="${1:-hog-kit-test-base:bookworm}"
if docker image inspect "$image" >/dev/null 2>&1; then
  exit 0
fi
mirror="${HOG_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
root="$(mktemp -d /var/tmp/hog-base-image-XXXXXX)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$root" "$mirror" >/dev/null
# The image's own apt reads the same mirror the image was made from.
echo "deb $mirror bookworm main" > "$root/etc/apt/sources.list"
tar -C "$root" -c . | docker import - "$image" >/dev/null
echo "made $image"
