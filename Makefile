# The two commands a newcomer needs: `make demo` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
export OMP_WAIT_POLICY ?= PASSIVE
export HF_HUB_OFFLINE ?= 1

.PHONY: install demo test lint bench-memory clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml scripts/install.sh
	bash scripts/install.sh
	touch $@

demo: install
	bash scripts/demo.sh

# pytest's exit code 5 (no tests collected) is a failure here, not a pass. Two workers, one test file
# each at a time (a file's fixtures load its models once): 8.6 min on 2 cores instead of 14.8 min in one.
TEST_WORKERS ?= 2
test: install
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests ran"; exit 1; fi; exit $$rc

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench-memory: install
	$(PY) bench_scripts/bench_store.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
