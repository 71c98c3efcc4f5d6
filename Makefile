# phr: the Makefile is the single source of truth for setting up a machine.
#   make demo    install what is missing, build, and show phr on a throwaway vault
#   make test    install what is missing, build, and run the whole test suite
#   make bench   release build and benchmarks beside their peers (not part of the tests)

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

# Build: system SQLite, OpenSSL, zlib, poppler-glib, cairo, pango and qpdf (system-library targets);
# the system's CA certificates for HTTPS.
BUILD_PACKAGES := pkg-config libsqlite3-dev libssl-dev zlib1g-dev ca-certificates libpoppler-glib-dev libcairo2-dev libpango1.0-dev libqpdf-dev
# Tests and demo: setsid (util-linux), PDF tools, fonts covering every script, Python checkers.
TEST_PACKAGES := util-linux openssl poppler-utils fonts-dejavu-core fonts-noto-core fonts-noto-cjk \
	python3 python3-jsonschema python3-icalendar
# Benchmarks only: the peers phr is measured against.
BENCH_PACKAGES := recoll hyperfine

SWIFT_BUILD_FLAGS ?=

.PHONY: all deps bench-deps build release test demo bench samples clean

all: build

# Installs only what is missing, so repeated runs are quick and need no network.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "make: installing $$missing"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES) $(TEST_PACKAGES))

bench-deps: deps
	$(call install_missing,$(BENCH_PACKAGES))

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# Tests that read the third-party corpus ($$PHR_TEST_DATA, else ../shared/data) are skipped when it
# is absent, each with the reason below; the last line says how many and how to run them.
# PHR_REQUIRE_TEST_DATA=1 (set by .ci/run) makes a missing corpus a failure instead.
CORPUS_SKIP_REASON := skipped: "needs the third-party corpus

test: deps
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	@mkdir -p .build; set -o pipefail; \
	swift test --skip-build $(SWIFT_BUILD_FLAGS) 2>&1 | tee .build/test-output.log; status=$$?; \
	skipped=$$(grep -c -F '$(CORPUS_SKIP_REASON)' .build/test-output.log); \
	if [ "$$skipped" -gt 0 ]; then \
		echo "make: $$skipped tests skipped: no third-party corpus at $${PHR_TEST_DATA:-../shared/data}; run them with PHR_TEST_DATA=/path/to/data make test"; \
	else \
		echo "make: no tests skipped for the third-party corpus"; \
	fi; \
	exit $$status

demo: build
	Scripts/demo.sh "$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/phr"

# A release build with the Swift runtime linked statically: phr starts in half the time, which is
# most of what a whole `phr search` costs. phr-render (PDF reading and drawing) goes beside phr,
# which starts it from its own directory. The benchmarks run phr from the same directory.
RELEASE_FLAGS := -c release --static-swift-stdlib

release: deps
	swift build $(RELEASE_FLAGS) --product phr
	swift build $(RELEASE_FLAGS) --product phr-render

bench: bench-deps
	swift build $(RELEASE_FLAGS) --product phr
	swift build $(RELEASE_FLAGS) --product phr-render
	swift build $(RELEASE_FLAGS) --product phr-bench
	"$$(swift build $(RELEASE_FLAGS) --show-bin-path)/phr-bench"

# Regenerates the synthetic sample documents committed under Samples/documents.
samples: build
	"$$(swift build --show-bin-path)/phr-samples" Samples/documents

clean:
	rm -rf .build
