# neuromem — one task runner. `make demo` and `make test` are the two set-up commands.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench-scale bench-ingest bench-recall bench-reflect clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
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
