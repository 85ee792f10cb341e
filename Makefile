# neuromem — one task runner. `make demo` and `make test` are the two set-up commands.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# CPU build of torch: the bundled embedder's fast engine (optional; `make demo TORCH=` skips it
# and the NumPy engine runs instead)
TORCH  ?= torch==2.13.0

.PHONY: demo test lint bench-scale bench-ingest bench-recall bench-reflect clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]' $(TORCH)
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/memctl demo

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

bench-scale: $(STAMP)
	$(BIN)/python bench/scale.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
