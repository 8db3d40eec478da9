#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu; network on):
# https://gradescope-autograders.readthedocs.io/en/latest/specs/. It installs what grading needs:
# bubblewrap (the grader's walls), CPython 3.11 (the version the course's locks are resolved for:
# Ubuntu's where it has one, else uv's) and the student edition's lock at its exact versions,
# hash-checked, as the Makefile installs it (uv, pinned; torch's CPU build from PyTorch's index,
# only when grading a lesson loads it), all under @PREFIX@ and readable by every user: learners'
# code runs as an unprivileged one where namespaces are refused. Written by
# `python -m grader gradescope`; docs/grading.md, section Gradescope.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PREFIX=@PREFIX@
UV="$PREFIX/uv/bin/uv"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends bubblewrap ca-certificates python3 python3-venv
apt-get install -y -q --no-install-recommends python3.11 || echo "no python3.11 package: uv installs CPython 3.11"
mkdir -p "$PREFIX"
python3 -m venv "$PREFIX/uv"
"$PREFIX/uv/bin/python" -m pip install --quiet "uv==@UV_VERSION@"
UV_PYTHON_INSTALL_DIR="$PREFIX/python" "$UV" venv --python 3.11 "$PREFIX/venv"
"$UV" pip install --python "$PREFIX/venv/bin/python" --require-hashes --no-deps -r "$HERE/requirements/grading.lock"
if [ -s "$HERE/requirements/torch.lock" ]; then
  "$UV" pip install --python "$PREFIX/venv/bin/python" --require-hashes --no-deps \
    -r "$HERE/requirements/torch.lock" --extra-index-url @TORCH_CPU_INDEX@
fi
"$UV" pip check --python "$PREFIX/venv/bin/python"
chmod -R a+rX "$PREFIX"
# which walls this image gives (the kernel may allow more when the autograder runs)
cd "$HERE/course" && "$PREFIX/venv/bin/python" -m grader.gradescope.run --check --root "$(dirname "$HERE")" || true
