# httplab: `make bench` runs the benchmark, `make test` runs every test. `make help` lists all.
SHELL := /bin/bash

# Settings: `make bench THREADS=2 REPEAT=3`. A variable reaches the harness only when you
# set it; unset, the harness's own default applies, so every default is stated once, in
# loadgen/httplab/bench_settings.py (`make help` lists them). VARIABLE becomes --variable,
# _ as -.
BENCH_SETTINGS := SERVERS THREADS CONNECTIONS DURATION REPEAT PRECISION MAX_REPEAT METRIC PRIMER WARMUP KEEP_UNMEASURED SERVER_CPUS SETTINGS \
	JDK EXECUTOR TRANSPORT PROTOCOL STREAMS CEILING LOADGEN_CPUS CV_THRESHOLD BACKEND BASE_IMAGES IMAGE SERVER_HOST LOADGEN_HOSTS \
	TARGET_ADDRESS FAIRNESS WORKLOAD DELAY_MS QUERIES PROFILE PROFILE_EVENT
# make latency: the bench's settings but FAIRNESS and LOADGEN_HOSTS (passed on only to be
# refused), and its own.
LATENCY_SETTINGS := $(BENCH_SETTINGS) RATES SLO_P99 COST_RATE STEP_WARMUP KEEPALIVE URL
# make pairing-study: of the bench's settings those it takes (bench_settings.py's
# PAIRING_STUDY_TAKES), and its own.
PAIRING_STUDY_SETTINGS := SERVERS THREADS CONNECTIONS DURATION PRIMER WARMUP SERVER_CPUS LOADGEN_CPUS JDK BACKEND \
	BASE_IMAGES ROUNDS STARTS PAIRS OUT
REPORT_SETTINGS := FROM OUT IMAGE
user_flags = $(foreach v,$(1),$(if $(filter command line environment%,$(origin $(v))),--$(shell echo '$(v)' | tr 'A-Z_' 'a-z-')='$($(v))'))
# make compare: BASE= and NEW= name two run directories (or their results.json); no default
# make test: extra pytest arguments, e.g. PYTEST_ARGS='-k parser'
PYTEST_ARGS ?=
# make test: one process by default (PYTEST_WORKERS=0): on a 2-core host the pytest-xdist
# run (PYTEST_WORKERS=auto, a worker per CPU; the tests that share the host's fixed ports or
# Docker names on one worker, one at a time: tests/support/shared_host.py) stalled its
# second worker behind the Docker tests' group, so it is opt-in until that is mended.
PYTEST_WORKERS ?= 0

PYTHON ?= python3
VENV := .venv
HTTPLAB := $(VENV)/bin/httplab
VENV_STAMP := $(VENV)/.installed
JAR_INPUTS := $(shell find servers -name '*.java' -o -name pom.xml -o -name server.toml -o -name '*.properties' -o -name '*.yml' 2>/dev/null | grep -v /target/)
# Every folder with a manifest is a server (the harness finds them the same way); those
# with a pom.xml are Maven modules, built into jars (the nginx reference is not).
SERVER_NAMES := $(patsubst servers/%/server.toml,%,$(wildcard servers/*/server.toml))
JARS := $(foreach s,$(SERVER_NAMES),$(if $(wildcard servers/$(s)/pom.xml),servers/$(s)/target/$(s).jar))
# The JDK that builds the jars: the newest this host has at the version servers/pom.xml's
# profiles ask for (<jdk>[21,)</jdk>: the modules Helidon 4, Java 21+, needs), found as the
# harness finds JDKs (loadgen/httplab/running/jdks.py). None: the default java builds the
# rest, and those modules' jars are left out, saying so.
NEWER_JDK := $(firstword $(shell sed -nE 's|.*<jdk>\[([0-9]+),.*|\1|p' servers/pom.xml))
NEWER_JDK_MODULES := $(shell sed -n '/<profiles>/,/<\/profiles>/s|.*<module>\(.*\)</module>.*|\1|p' servers/pom.xml)
FIND_NEWER_JDK = cd loadgen && $(PYTHON) -m httplab.running.jdks $(NEWER_JDK)+
BUILD_JAVA_HOME := $(if $(NEWER_JDK),$(shell $(FIND_NEWER_JDK) 2>/dev/null))
ifeq ($(and $(NEWER_JDK),$(if $(BUILD_JAVA_HOME),,missing)),missing)
JARS := $(filter-out $(foreach m,$(NEWER_JDK_MODULES),servers/$(m)/target/$(m).jar),$(JARS))
endif
# async-profiler's agent, which the same Maven build unpacks (PROFILE=1 on BACKEND=local),
# where the harness looks for it (stated only in paths.py).
PROFILER_AGENT := $(shell cd loadgen && $(PYTHON) -c 'from httplab.paths import ASYNC_PROFILER_LIB; print(ASYNC_PROFILER_LIB)')
# oha, the fixed-rate load tool, at the version its reader is written for (stated only in
# command.py), built into the repository where the harness and the wrk image look for it
# (stated only in paths.py: OHA_ROOT/bin/oha).
OHA_VERSION := $(shell sed -n 's/^OHA_VERSION = "\([^"]*\)".*/\1/p' loadgen/httplab/loadtools/oha/command.py)
OHA_ROOT := $(shell cd loadgen && $(PYTHON) -c 'from httplab.paths import OHA_IN_REPO; print(OHA_IN_REPO.parent.parent)')

.PHONY: help bench sweep latency calibrate pairing-study report compare test golden jars jdks oha venv base-images servers-table docs-settings clean
# make sweep: the concurrency sweep's own points, before the user's settings (which win).
SWEEP_SETTINGS := --threads=10 --connections=16,64,256,500,1024

help: venv ## List the targets, and the settings with their defaults
	@echo "Targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  %-14s %s\n", $$1, $$2}'
	@echo "Settings of make bench, with their defaults:"
	@$(HTTPLAB) settings
	@echo "Settings of make latency (besides those of make bench but FAIRNESS and LOADGEN_HOSTS):"
	@$(HTTPLAB) settings --latency
	@echo "Settings of make calibrate: those of make bench but IMAGE, with its own defaults for:"
	@$(HTTPLAB) settings --calibrate
	@echo "Settings of make pairing-study: of those of make bench, $(filter-out ROUNDS STARTS PAIRS OUT,$(PAIRING_STUDY_SETTINGS)); its own defaults and settings:"
	@$(HTTPLAB) settings --pairing-study
	@echo "Settings of make report: FROM (default results/latest), OUT (default FROM), IMAGE"
	@echo "Settings of make compare: BASE=<run dir> NEW=<run dir>, e.g. BASE=results/<stamp> NEW=results/latest; OUT (the folder of compare.html, default results/compare/<base>-vs-<new>)"
	@echo "Settings of make test: PYTEST_ARGS, e.g. PYTEST_ARGS='-k parser'; PYTEST_WORKERS, pytest-xdist's workers (now $(PYTEST_WORKERS); auto: one per CPU; 0: one process)"

bench: venv $(if $(filter local,$(BACKEND)),jars) ## Run wrk against every server, one at a time
	$(HTTPLAB) bench $(call user_flags,$(BENCH_SETTINGS))

sweep: venv $(if $(filter local,$(BACKEND)),jars) ## Every server at 16 to 1024 connections (image/result3.png)
	$(HTTPLAB) bench $(SWEEP_SETTINGS) $(call user_flags,$(BENCH_SETTINGS))

# oha runs on the host with BACKEND=local or URL=, in the wrk image otherwise.
latency: venv $(if $(URL),oha,$(if $(filter local,$(BACKEND)),jars oha)) ## Latency at fixed rates, and the highest rate under SLO_P99 (image/result-latency.png)
	$(HTTPLAB) latency $(call user_flags,$(LATENCY_SETTINGS))

calibrate: venv $(if $(filter local,$(BACKEND)),jars) ## The host's own noise before a long run: one server twice per round (an A/A), the rounds a ±5 % needs
	$(HTTPLAB) calibrate $(call user_flags,$(filter-out IMAGE,$(BENCH_SETTINGS)))

pairing-study: venv $(if $(filter local,$(BACKEND)),jars) ## Whole rounds or alternating pairs: which narrows an A/A interval in fewer minutes here (docs/studies/pairing.md)
	$(HTTPLAB) pairing-study $(call user_flags,$(PAIRING_STUDY_SETTINGS))

report: venv ## Rebuild results.{json,md,csv}, the page index.html and the charts from raw wrk text (FROM, OUT, IMAGE)
	$(HTTPLAB) report $(call user_flags,$(REPORT_SETTINGS))

compare: venv ## Compare two runs' Requests/sec cell by cell, beyond their noise, and write compare.html (BASE, NEW, OUT)
	@[ -n '$(BASE)' ] && [ -n '$(NEW)' ] || { echo "httplab: error: make compare needs BASE=<run dir> and NEW=<run dir>" >&2; exit 2; }
	$(HTTPLAB) compare --base='$(BASE)' --new='$(NEW)' $(call user_flags,OUT)

# host-check comes first: a missing package is one line before any build or test.
test: host-check venv jars oha ## Run every test (unit, conformance, end to end; Docker ones need an engine)
	# JAR_SOURCE=host: the server images copy the jars just built (servers/Dockerfile).
	cd loadgen && JAR_SOURCE=host ../$(VENV)/bin/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

.PHONY: host-check
host-check: ## Check the host has the Debian packages every test needs (scripts/host-packages.txt) and the default JDK
	@bash scripts/host-packages.sh check test
	@cd loadgen && $(PYTHON) -m httplab.running.jdks "$$($(PYTHON) -c 'from httplab.axes import JDK; print(JDK.default)')" >/dev/null

.PHONY: hosts-test
hosts-test: venv ## Run the multi-machine tests on network namespaces of this host (root and Docker)
	cd loadgen && ../$(VENV)/bin/python -m pytest tests/hosts $(PYTEST_ARGS)

golden: venv ## Regenerate the exporters' golden files after an intended format change; review the diff
	cd loadgen && ../$(VENV)/bin/python -m tests.support.update_golden

jars: $(JARS) ## Build the server jars with Maven (on the newest JDK 21+ found, else the default java)

$(JARS) $(PROFILER_AGENT) &: $(JAR_INPUTS)
	@command -v mvn >/dev/null || { echo "httplab: error: mvn not found: install Maven 3.8+ and a JDK 17+" >&2; exit 2; }
	@$(if $(NEWER_JDK),$(if $(BUILD_JAVA_HOME),,echo "httplab: not building $(NEWER_JDK_MODULES), which needs JDK $(NEWER_JDK)+: $$($(FIND_NEWER_JDK) 2>&1 | sed 's/^httplab: //')" >&2))
	# clean: shading a jar that an earlier package already shaded doubles it.
	$(if $(BUILD_JAVA_HOME),JAVA_HOME='$(BUILD_JAVA_HOME)' )mvn -B -q -Dstyle.color=never -f servers/pom.xml clean package -DskipTests
	@touch $(JARS) $(PROFILER_AGENT)

jdks: ## Make the JDKs Debian 12 lacks (21, 25) from Debian 13's packages into .tools/jdks (root, debootstrap)
	@bash scripts/host-jdks.sh

oha: ## Build oha (fixed-rate load) with cargo into loadgen/.tools/oha/bin, when missing or of another version
	@[ -n '$(OHA_VERSION)' ] || { echo "httplab: error: no OHA_VERSION in loadgen/httplab/loadtools/oha/command.py" >&2; exit 2; }
	@bash scripts/oha.sh '$(OHA_VERSION)' '$(OHA_ROOT)'

venv: $(VENV_STAMP) ## Create .venv and install the harness into it

$(VENV_STAMP): loadgen/requirements.lock loadgen/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -r loadgen/requirements.lock
	$(VENV)/bin/pip install -q --no-deps -e loadgen
	@touch $@

base-images: ## Build local base images from Debian packages (no registry needed); CA_DIR=dir adds CAs
	bash scripts/base-images.sh $(if $(CA_DIR),--ca-dir '$(CA_DIR)')

servers-table: venv ## Rewrite the servers table in README.md from the manifests
	$(HTTPLAB) servers --update-readme

docs-settings: venv ## Rewrite docs/settings.md from the settings' one statement (bench_settings.py)
	$(HTTPLAB) settings --markdown > docs/.settings.md.tmp && mv docs/.settings.md.tmp docs/settings.md

clean: ## Remove the venv and Maven build output (results/ and image/ are kept)
	rm -rf $(VENV) servers/*/target
