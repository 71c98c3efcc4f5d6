# phr: the Makefile is the single source of truth for setting up a machine.
#   make demo    install what is missing, build, and show phr on a throwaway vault
#   make test    install what is missing, build, and run the whole test suite
#   make bench   release build and benchmarks beside their peers (not part of the tests)
#   make install PREFIX=/usr/local   phr, phr-render, the man page and shell completions
#   make uninstall PREFIX=/usr/local

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

# Build: system SQLite, OpenSSL, zlib, poppler-glib, cairo, pango, qpdf, Tesseract with leptonica,
# libheif and libxml2 (system-library targets); the system's CA certificates for HTTPS; Tesseract's
# English model and its orientation model (OSD). OCR_LANGS="deu fra" adds tesseract-ocr-deu, -fra.
OCR_LANGS ?=
BUILD_PACKAGES := pkg-config libsqlite3-dev libssl-dev zlib1g-dev ca-certificates libpoppler-glib-dev libcairo2-dev libpango1.0-dev libqpdf-dev \
	libtesseract-dev libleptonica-dev libheif-dev libxml2-dev tesseract-ocr-eng tesseract-ocr-osd \
	$(foreach lang,$(OCR_LANGS),tesseract-ocr-$(lang))
# Tests and demo: setsid (util-linux), PDF tools, fonts covering every script, Python checkers,
# what draws the OCR accuracy corpus (Tools/ScanCorpus: PIL, heif-enc for the HEIC photo), and
# Ghostscript (a PDF whose text is drawn as outlines, for the OCR tests), and readelf (binutils: what
# phr-render links by itself), and a real browser for the web UI's tests (Debian's Chromium, its
# WebDriver and Selenium), and the storage engines `phr sync` is tested through (rclone, which also
# serves WebDAV, and Syncthing).
TEST_PACKAGES := util-linux openssl poppler-utils fonts-dejavu-core fonts-noto-core fonts-noto-cjk \
	python3 python3-jsonschema python3-icalendar python3-pil libheif-examples ghostscript binutils \
	chromium chromium-driver python3-selenium python3-venv rclone syncthing
# Benchmarks only: the peers phr is measured against (img2pdf makes OCRmyPDF's input PDF).
BENCH_PACKAGES := recoll hyperfine tesseract-ocr ocrmypdf img2pdf libxml2-utils

SWIFT_BUILD_FLAGS ?=

# SwiftPM drops `-pthread` from pkg-config files (glib's, gmodule's, gthread's) and warns on every
# build; with glibc 2.34 and later the flag changes nothing (libpthread is part of libc). The build
# reads copies of just those .pc files without it (.build/pkgconfig, made by `deps`), so it prints
# no warning at all and `make test` can insist on that.
PKG_CONFIG_OVERRIDES := $(CURDIR)/.build/pkgconfig
SWIFT_FLAGS = --pkg-config-path $(PKG_CONFIG_OVERRIDES) $(SWIFT_BUILD_FLAGS)

.PHONY: all deps bench-deps build release test test-without-corpus demo bench samples clean man install uninstall install-check

all: build

# Installs only what is missing, so repeated runs are quick and need no network.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "make: installing $$missing"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

# axe-core, the accessibility checker the browser test runs on every screen, from PyPI into a
# virtual environment under .build/ (Debian's Selenium comes through the system site packages).
BROWSER_VENV := .build/venv-browser
# The official MCP Python SDK, the client the `phr mcp` tests drive phr with (Tests/MCP/).
MCP_VENV := .build/venv-mcp
# moto's S3 API server, the S3 store the `phr sync` tests reach through rclone (about 20 s to install).
S3_VENV := .build/venv-s3

deps:
	$(call install_missing,$(BUILD_PACKAGES) $(TEST_PACKAGES))
	@[ -x $(BROWSER_VENV)/bin/python3 ] && $(BROWSER_VENV)/bin/python3 -c 'import axe_selenium_python, axe_core_python' 2>/dev/null || { \
		mkdir -p .build && /usr/bin/python3 -m venv --system-site-packages $(BROWSER_VENV) && \
		$(BROWSER_VENV)/bin/pip install --quiet --no-deps axe-selenium-python==2.1.6 axe-core-python==0.1.0; }
	@[ -x $(MCP_VENV)/bin/python3 ] && $(MCP_VENV)/bin/python3 -c 'import mcp' 2>/dev/null || { \
		mkdir -p .build && /usr/bin/python3 -m venv $(MCP_VENV) && \
		$(MCP_VENV)/bin/pip install --quiet mcp==2.3.0; }
	@[ -x $(S3_VENV)/bin/moto_server ] || { \
		mkdir -p .build && /usr/bin/python3 -m venv $(S3_VENV) && \
		$(S3_VENV)/bin/pip install --quiet 'moto[server]==5.0.28'; }
	@mkdir -p $(PKG_CONFIG_OVERRIDES); \
	for dir in $$(pkg-config --variable pc_path pkg-config | tr ':' ' '); do \
		for pc in $$dir/*.pc; do \
			[ -f "$$pc" ] && grep -qE '^(Cflags|Libs):.*-pthread' "$$pc" || continue; \
			name=$$(basename "$$pc"); [ -f "$(PKG_CONFIG_OVERRIDES)/$$name" ] && continue; \
			sed -E '/^(Cflags|Libs):/ s/ ?-pthread//g' "$$pc" > "$(PKG_CONFIG_OVERRIDES)/$$name"; \
		done; \
	done

bench-deps: deps
	$(call install_missing,$(BENCH_PACKAGES))

build: deps
	@echo "make: building phr (the first build on 2 cores takes 5 to 10 minutes; later ones seconds)"
	swift build $(SWIFT_FLAGS)

# Tests that read the third-party corpus ($$PHR_TEST_DATA, else ../shared/data) are skipped when it
# is absent, each with the reason below; the last line says how many and how to run them.
# PHR_REQUIRE_TEST_DATA=1 (set by .ci/run) makes a missing corpus a failure instead.
CORPUS_SKIP_REASON := skipped: "needs the third-party corpus

test: deps
	@echo "make: building phr and its tests (the first build on 2 cores takes 5 to 10 minutes), then running 700+ tests (about 5 minutes)"
	@set -o pipefail; swift build --build-tests $(SWIFT_FLAGS) 2>&1 | tee .build/build-output.log
	@# SwiftPM's notes about a dependency's own package layout ("warning: 'swift-distributed-tracing':
	@# found 1 file(s) which are unhandled") are not phr's code and cannot be fixed here.
	@warnings=$$(awk '/(^|: )warning:/ && !(/^warning: .[a-z0-9-]+.: found [0-9]+ file\(s\) which are unhandled/ && !/^warning: .phr.:/) { n++ } END { print n + 0 }' .build/build-output.log); \
	if [ "$$warnings" -gt 0 ]; then echo "make: the build printed $$warnings warnings (see above); phr builds without any"; exit 1; fi
	@mkdir -p .build; set -o pipefail; \
	swift test --skip-build --disable-xctest $(SWIFT_FLAGS) 2>&1 | tee .build/test-output.log; status=$$?; \
	skipped=$$(grep -c -F '$(CORPUS_SKIP_REASON)' .build/test-output.log); \
	echo "make: the times above are wall-clock, for tests that ran in parallel"; \
	if [ "$$skipped" -gt 0 ]; then \
		echo "make: $$skipped tests skipped: no third-party corpus at $${PHR_TEST_DATA:-../shared/data}; run them with PHR_TEST_DATA=/path/to/data make test"; \
	else \
		echo "make: no tests skipped for the third-party corpus"; \
	fi; \
	exit $$status

# The built tests run as on a clone without the corpus (.ci/run does this after make test, where
# the corpus is present): a test that reads the corpus without the .corpus trait fails here.
test-without-corpus:
	@mkdir -p .build; set -o pipefail; \
	env -u PHR_REQUIRE_TEST_DATA PHR_TEST_DATA=/nonexistent/phr-test-data \
		swift test --skip-build --disable-xctest $(SWIFT_FLAGS) > .build/test-without-corpus.log 2>&1; status=$$?; \
	grep -E '✘|Test run with' .build/test-without-corpus.log; \
	skipped=$$(grep -c -F '$(CORPUS_SKIP_REASON)' .build/test-without-corpus.log); \
	echo "make: without the corpus, $$skipped tests skipped (full output in .build/test-without-corpus.log)"; \
	[ "$$skipped" -gt 0 ] || { echo "make: no test was skipped: is the .corpus trait still in use?"; exit 1; }; \
	exit $$status

demo: build
	Scripts/demo.sh "$$(swift build $(SWIFT_FLAGS) --show-bin-path)/phr"

# A release build with the Swift runtime linked statically: phr starts in half the time, which is
# most of what a whole `phr search` costs. phr-render (PDF reading and drawing) goes beside phr,
# which starts it from its own directory. The benchmarks run phr from the same directory.
RELEASE_FLAGS = -c release --static-swift-stdlib --pkg-config-path $(PKG_CONFIG_OVERRIDES)

release: deps
	swift build $(RELEASE_FLAGS) --product phr
	swift build $(RELEASE_FLAGS) --product phr-render

# Installation: phr and phr-render side by side (phr starts the phr-render beside it), a man page
# generated from the commands' own help (swift-argument-parser's generate-manual, built from the
# package's dependencies, so offline), and bash, zsh and fish completions generated by phr.
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

# The plugin builds every product, in debug here: in release it would build without
# --static-swift-stdlib and the next `make release` would rebuild everything. The page is the same:
# it comes from the commands' help, which does not depend on the build configuration.
man: deps
	swift package --pkg-config-path $(PKG_CONFIG_OVERRIDES) plugin generate-manual --configuration debug
	mkdir -p .build/man
	cp .build/plugins/GenerateManual/outputs/phr/phr.1 .build/man/phr.1

install: release man
	@bin="$$(swift build $(RELEASE_FLAGS) --show-bin-path)"; set -e; \
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"; \
	install -m 0755 "$$bin/phr" "$$bin/phr-render" "$(BINDIR)/"; \
	install -m 0644 .build/man/phr.1 "$(MANDIR)/phr.1"; \
	"$$bin/phr" --generate-completion-script bash > "$(BASHDIR)/phr"; \
	"$$bin/phr" --generate-completion-script zsh > "$(ZSHDIR)/_phr"; \
	"$$bin/phr" --generate-completion-script fish > "$(FISHDIR)/phr.fish"; \
	echo "make: installed phr and phr-render in $(BINDIR), the man page and completions under $(DESTDIR)$(PREFIX)/share"

uninstall:
	rm -f "$(BINDIR)/phr" "$(BINDIR)/phr-render" "$(MANDIR)/phr.1" "$(BASHDIR)/phr" "$(ZSHDIR)/_phr" "$(FISHDIR)/phr.fish"

# Installs into a temporary PREFIX and checks the installed phr: it finds its phr-render, adds a
# document, and `make uninstall` leaves nothing behind.
install-check: release man
	Scripts/install-check.sh

bench: bench-deps
	swift build $(RELEASE_FLAGS) --product phr
	swift build $(RELEASE_FLAGS) --product phr-render
	swift build $(RELEASE_FLAGS) --product phr-health-export-sample
	swift build $(RELEASE_FLAGS) --product phr-bench
	"$$(swift build $(RELEASE_FLAGS) --show-bin-path)/phr-bench"

# Regenerates the synthetic sample documents committed under Samples/documents, the cairo lab
# reports under Samples/lab-reports and the Chromium-printed lab layout corpus under
# Samples/lab-layouts (Tools/LabLayouts/generate.py; needs chromium, which deps installs).
samples: build
	"$$(swift build --show-bin-path)/phr-samples" Samples/documents Samples/lab-reports
	python3 Tools/LabLayouts/generate.py Samples/lab-layouts

clean:
	rm -rf .build
