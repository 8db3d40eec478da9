# The course in two commands: `make lab` opens it, `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# Installs that do not drift: exact versions with their hashes, resolved from pyproject.toml by
# `make lock` (uv pip compile) into one lock per set of extras, requirements/<set>.lock (see
# requirements/README.md). `make` installs LOCK_SET's lock with --require-hashes, then the
# course itself with --no-deps, and `pip check` fails on a lock that pyproject.toml outgrew.
LOCK_SET ?= test
LOCK     := requirements/$(LOCK_SET).lock
# The lock's torch is the CPU build (torch==2.13.0+cpu, with its hash; a plain torch==2.13.0
# on Linux is a CUDA build of several GB). pip finds it where pip is told to look, else on
# PyTorch's CPU index, TORCH_CPU_INDEX. Another torch instead (a GPU, another OS): name it,
# e.g. make lab TORCH_SPEC=torch [TORCH_INDEX=URL]; everything else still comes from the lock.
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_SPEC      ?=
TORCH_INDEX     ?=
# Splits a lock into its torch entry and the rest (an entry: a line that starts with a name,
# then its indented --hash and comment lines), as the student release splits it: the venv's bare
# python runs grader/release/locks.py (standard library only) before anything is installed.
LOCK_TORCH = $(BIN)/python -I grader/release/locks.py torch
LOCK_REST  = $(BIN)/python -I grader/release/locks.py rest

.PHONY: lab test test-pytest test-nbval test-nbval-blas lock mutants stubs outputs tiny-checkpoint \
	bwrap chromium bench bench-make-test site clean

# The lock goes in with uv where uv can be had (seconds; pip takes minutes for the same hashes),
# else with pip: uv is the pinned UV_VERSION in its own venv, .venv-lock, which `make lock` uses too.
# uv reads no pip.conf: torch's CPU wheel comes from TORCH_WHEELS (this machine's folder or PyTorch's index).
# Bytecode, compiled once here: uv leaves the .pyc files to the first import, and where
# PYTHONDONTWRITEBYTECODE is set (this workplace sets it) no import ever writes them, so every
# kernel, worker and sandbox compiled torch from source again (import torch: 3.3 s, 1.4 s
# compiled). Left out, a fifth of the venv's source that no process of the course imports: test
# folders and transformers' other model families (uv's --compile-bytecode took 32 s, this 19 s).
# A package file that does not compile (a Python 2 example) is imported by no one: `|| true`.
PYC_SKIP := /tests?/|/transformers/models/(?!(gpt2|auto)/|__init__\.py)
UV_INSTALL  = $(UV) pip install --quiet --python $(BIN)/python --require-hashes --no-deps -r
PIP_INSTALL = $(BIN)/python -m pip install --quiet --require-hashes --no-deps -r
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(LOCK_REST) $(LOCK) > $(VENV)/lock-rest.txt
	@$(MAKE) --no-print-directory $(UV) >/dev/null 2>&1 || echo "note: uv could not be installed: installing with pip (minutes)"
	if test -x $(UV); then $(UV_INSTALL) $(VENV)/lock-rest.txt; else $(PIP_INSTALL) $(VENV)/lock-rest.txt; fi
ifeq ($(TORCH_SPEC),)
	$(LOCK_TORCH) $(LOCK) > $(VENV)/lock-torch.txt
	if test -x $(UV); then $(UV_INSTALL) $(VENV)/lock-torch.txt $(TORCH_WHEELS); else \
	  $(PIP_INSTALL) $(VENV)/lock-torch.txt 2>/dev/null || \
	  $(PIP_INSTALL) $(VENV)/lock-torch.txt --extra-index-url $(TORCH_CPU_INDEX); fi
else
	$(BIN)/python -m pip install --quiet "$(TORCH_SPEC)" $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX),)
endif
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	$(BIN)/python -m compileall -qq -j0 -x '$(PYC_SKIP)' \
	  "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" || true
	# offline learners: no "get Jupyter news?" prompt, no update checks
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp config/jupyterlab-overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $(STAMP)

# Opens lesson 01; notebooks/ (lessons) and exercises/ (your work) are side by side.
# Jupyter refuses to run as root (containers, Binder-like hosts) unless told --allow-root.
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root,) --ServerApp.root_dir="$(CURDIR)" \
		--LabApp.default_url=/lab/tree/notebooks/01_embeddings.ipynb

# Grading in namespaces (--isolation namespaces) needs bubblewrap: install it where we may
# (root with apt); elsewhere the namespace tests are skipped with a note.
bwrap:
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  { apt-get install -y -q bubblewrap >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q bubblewrap >/dev/null 2>&1; }; }; } || \
	  echo "note: bubblewrap (bwrap) is not installed: tests of --isolation namespaces are skipped"

# The browser tests (tests/e2e/test_browser.py) drive Debian's Chromium with Playwright: install it
# where we may (root with apt); elsewhere they are skipped with a note.
chromium:
	@test -x /usr/bin/chromium || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  { apt-get install -y -q chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; }; } || \
	  echo "note: chromium is not installed: the browser tests (tests/e2e/test_browser.py) are skipped"

# Everything, on both cores: pytest over tests/ split between PYTEST_WORKERS workers (pytest-xdist; a
# module whose tests share an expensive fixture stays on one worker: xdist_group marks), beside
# nbval over the three notebook folders and nbval over the lessons and solutions once more under
# a second BLAS configuration. --output-sync keeps each run's output together.
# The course's cache (gpt2course.data.cache_dir: the parsed corpus, seconds per process) lives in
# the checkout for the tests: every process of one run (workers, kernels, training runs) shares
# it, and a fresh clone starts without one, as a learner's fresh machine does.
test test-pytest test-nbval test-nbval-blas: export GPT2COURSE_CACHE = $(CURDIR)/.cache/gpt2course
test: $(STAMP) bwrap chromium
	$(BIN)/python -m grader stubs --check
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-pytest test-nbval test-nbval-blas

# One thread per worker: torch's OpenMP threads waiting for a core another worker holds made the
# training tests tens of times slower. Four workers on two cores: the tests wait about as long
# as they compute (kernels and JupyterLab starting, the browser drawing, graders' subprocesses,
# time limits that must run out), and two workers left the cores idle about half the time.
PYTEST_WORKERS ?= 4
test-pytest: $(STAMP)
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 \
	  $(BIN)/python -m pytest tests -n $(PYTEST_WORKERS) --dist loadgroup

# -p tests.support.unix_kernels: kernels on Unix sockets, not TCP ports another process can take first
# while a kernel starts (why, in tests/support/unix_kernels.py), and a dead kernel's stderr in the error.
NBVAL := $(BIN)/python -m pytest --nbval --nbval-current-env -p no:cacheprovider -p no:xdist -p tests.support.unix_kernels
# The machine's own kernels and threads. OMP_WAIT_POLICY=PASSIVE changes no number, only how
# torch's idle OpenMP threads wait: spinning, beside the other runs, made 40 training steps
# take minutes instead of seconds.
test-nbval: $(STAMP)
	OMP_WAIT_POLICY=PASSIVE $(NBVAL) notebooks exercises solutions

# What nbval compares must not change with the machine: the lessons and solutions run again with
# another OpenBLAS kernel, the matching MKL and ATen code paths and one thread (what
# scripts/blas_config.py picks: an AVX2 machine's kernels on an AVX-512 one, else those of an AVX
# machine without FMA), so a
# printed value that a learner's laptop would round differently fails here.
test-nbval-blas: $(STAMP)
	second=$$($(BIN)/python scripts/blas_config.py --env) && env $$second $(NBVAL) notebooks solutions

# Maintainers: regenerate exercises/ after editing solutions/.
stubs: $(STAMP)
	$(BIN)/python -m grader stubs

# Maintainers: re-run the lessons and solutions to refresh their stored outputs.
outputs: $(STAMP)
	$(BIN)/python scripts/refresh_outputs.py notebooks/*.ipynb solutions/*.ipynb
	$(BIN)/python -m grader stubs

# The course as a static website in build/site/ (git ignores build/): every lesson and exercise
# notebook with its stored outputs, built offline, asking nothing of any other server. Open
# build/site/index.html or copy the folder to a static host (docs/site.md, scripts/build_site.py).
site: $(STAMP)
	$(BIN)/python scripts/build_site.py --out build/site

# Maintainers: retrain the course's tiny model from scratch (~3 min on 2 cores); see
# gpt2course/checkpoints/README.md.
tiny-checkpoint: $(STAMP)
	$(BIN)/python -m gpt2course.train --config gpt2course/checkpoints/tiny_train.json --out-dir runs/tiny
	cp runs/tiny/model.safetensors runs/tiny/config.json runs/tiny/metrics.jsonl gpt2course/checkpoints/tiny/

# Ratios measured side by side in one run (no timed tests): benchmarks/, results and targets in
# docs/benchmarks.md, a summary at the end. BENCH_MAKE_TEST=1 also times a fresh clone's `make test`.
bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

# The fresh-clone `make test` time alone (about 10 minutes: a whole `make test` in a temporary clone).
bench-make-test: $(STAMP)
	$(BIN)/python benchmarks/run_all.py make_test_time

# Maintainers: re-resolve the locks from pyproject.toml (after changing a dependency; pins
# already in a lock are kept where they still fit, UPGRADE=1 takes the newest of everything).
# The first set is resolved alone; every other set is constrained by it, so the versions the
# sets share are the same. A new set: add its name to LOCK_SETS and an EXTRAS_<name> line.
LOCK_SETS   := test base
EXTRAS_test := test cluster
EXTRAS_base :=
UV_VERSION  ?= 0.13.8
UV          := .venv-lock/bin/uv
# Where uv finds torch's CPU build: this machine's wheel folder when it has one, else PyTorch's index.
TORCH_WHEELS ?= $(if $(wildcard /opt/wheels/torch-*+cpu-*.whl),--find-links /opt/wheels,--extra-index-url $(TORCH_CPU_INDEX))
# Not installed: rfc3987-syntax (and lark, which only it needs), jsonschema's optional checker of
# the "iri" formats, there through jupyter-events' jsonschema[format-nongpl]. No schema that
# Jupyter or the course validates has such a format, and importing it builds three Earley
# parsers: 1.5 s in every process that imports nbformat (every pytest worker, nbval run, grader
# command and Jupyter server), about 35 CPU-seconds of each `make test`.
LOCK_OMIT  = rfc3987-syntax lark
LOCK_FLAGS = --generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
	--constraint requirements/torch-cpu.txt $(TORCH_WHEELS) --custom-compile-command "make lock" \
	$(foreach p,$(LOCK_OMIT),--no-emit-package $(p)) --no-emit-index-url --quiet $(if $(UPGRADE),--upgrade,)
$(UV):
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet "uv==$(UV_VERSION)"

lock: $(UV)
	$(UV) pip compile pyproject.toml $(foreach e,$(EXTRAS_test),--extra $(e)) $(LOCK_FLAGS) \
		--output-file requirements/test.lock
	$(foreach set,$(filter-out test,$(LOCK_SETS)),$(UV) pip compile pyproject.toml \
		$(foreach e,$(EXTRAS_$(set)),--extra $(e)) $(LOCK_FLAGS) --constraint requirements/test.lock \
		--output-file requirements/$(set).lock &&) true

# Maintainers: plant each bug of scripts/mutants.toml, run its tests, revert; prints the kill rate.
# A tool, not part of `make test` (about an hour).
mutants: $(STAMP)
	$(BIN)/python scripts/mutants.py

clean:
	rm -rf $(VENV) .venv-lock .pytest_cache
