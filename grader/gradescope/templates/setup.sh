#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu; network on):
# https://gradescope-autograders.readthedocs.io/en/latest/specs/. It installs what grading needs
# and nothing of the course's lessons: bubblewrap (the grader's walls), CPython 3.11 (the version
# the course's locks are resolved for) in @PREFIX@, readable by every user (learners' code runs
# as an unprivileged one where namespaces are refused), and requirements/grading.lock, the student
# edition's lock at its exact versions, hash-checked (torch's CPU build only when grading a lesson
# loads it). Written by `python -m grader gradescope`; docs/grading.md, section Gradescope.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PREFIX=@PREFIX@
UV_VERSION=@UV_VERSION@
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends bubblewrap ca-certificates python3 python3-venv
mkdir -p "$PREFIX"
if apt-get install -y -q --no-install-recommends python3.11 python3.11-venv; then
  python3.11 -m venv "$PREFIX/venv"
else  # an Ubuntu without 3.11 (24.04): uv's own CPython 3.11, installed under PREFIX
  python3 -m venv "$PREFIX/uv"
  "$PREFIX/uv/bin/python" -m pip install --quiet "uv==$UV_VERSION"
  UV_PYTHON_INSTALL_DIR="$PREFIX/python" "$PREFIX/uv/bin/uv" venv --seed --python 3.11 "$PREFIX/venv"
fi
"$PREFIX/venv/bin/python" -m pip install --quiet --require-hashes --no-deps -r "$HERE/requirements/grading.lock"
"$PREFIX/venv/bin/python" -m pip check
chmod -R a+rX "$PREFIX"
# which walls this image can build (the kernel may allow more when the autograder runs)
cd "$HERE/course" && "$PREFIX/venv/bin/python" -m grader.gradescope.run --check --root "$(dirname "$HERE")" || true
