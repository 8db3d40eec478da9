# The course in two commands: `make lab` opens it, `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# The CPU build of torch (a plain `pip install torch` on Linux fetches a CUDA build
# of several GB). Elsewhere: make lab TORCH_SPEC=torch TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_SPEC  ?= torch==2.13.0
TORCH_INDEX ?=
PIP_TORCH_FLAGS := $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX),)
STAMP := $(VENV)/.installed

.PHONY: lab test stubs outputs tiny-checkpoint bwrap chromium bench bench-make-test clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "$(TORCH_SPEC)" $(PIP_TORCH_FLAGS)
	$(BIN)/python -m pip install --quiet -e ".[test,cluster]"
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

# The browser tests (tests/test_browser.py) drive Debian's Chromium with Playwright: install it
# where we may (root with apt); elsewhere they are skipped with a note.
chromium:
	@test -x /usr/bin/chromium || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  { apt-get install -y -q chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; }; } || \
	  echo "note: chromium is not installed: the browser tests (tests/test_browser.py) are skipped"

test: $(STAMP) bwrap chromium
	$(BIN)/python -m grader stubs --check
	$(BIN)/python -m pytest tests
	$(BIN)/python -m pytest --nbval --nbval-current-env -p no:cacheprovider notebooks exercises solutions

# Maintainers: regenerate exercises/ after editing solutions/.
stubs: $(STAMP)
	$(BIN)/python -m grader stubs

# Maintainers: re-run the lessons and solutions to refresh their stored outputs.
outputs: $(STAMP)
	$(BIN)/python scripts/refresh_outputs.py notebooks/*.ipynb solutions/*.ipynb
	$(BIN)/python -m grader stubs

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

clean:
	rm -rf $(VENV) .pytest_cache
