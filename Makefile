# The two quick-start commands: `make run` and `make test`; `make package` builds the .deb.
BUILD_DIR ?= build
ASAN_BUILD_DIR ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSANDBOX_DESK_WERROR=ON
# The local backend `make run` uses when it has to start one.
LOCAL_PORT ?= 49900

.PHONY: all deps npm build build-asan run local test test-asan bench package fuzz soak screenshots clean

all: build

deps:
	@tools/install-deps.sh

# Pinned SDK and CLI for the conformance tests, installed into the build tree.
npm: deps
	@mkdir -p $(BUILD_DIR)/npm
	@cp tests/conformance/package.json $(BUILD_DIR)/npm/package.json
	@cd $(BUILD_DIR)/npm && npm install --no-audit --no-fund --loglevel=error

build: deps
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS) -- --no-print-directory

build-asan: deps
	@cmake -S . -B $(ASAN_BUILD_DIR) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=Debug -DSANDBOX_DESK_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD_DIR) -j $(JOBS) -- --no-print-directory

# Starts the local backend if none answers on LOCAL_PORT, then opens the app on it.
run: build
	@tools/run-app.sh $(BUILD_DIR)/bin $(LOCAL_PORT)

local: build
	@$(BUILD_DIR)/bin/sandbox-desk-local --port $(LOCAL_PORT)

# Every test, then every test again under AddressSanitizer + UBSan.
test: build npm build-asan
	@tools/run-tests.sh $(BUILD_DIR) $(ASAN_BUILD_DIR)

# One libFuzzer target for longer than the test run does: make fuzz T=envelope S=600
T ?= envelope
S ?= 300
fuzz: build
	@mkdir -p $(BUILD_DIR)/tests/fuzz/work-$(T)
	@$(BUILD_DIR)/tests/fuzz/fuzz_$(T) -max_total_time=$(S) -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(BUILD_DIR)/tests/fuzz/crash-$(T)- \
		$(BUILD_DIR)/tests/fuzz/work-$(T) tests/fuzz/corpus/$(T)

# The fault soak with more creations than the test run: make soak N=2000 [SEED=S]
N ?= 2000
soak: build
	@$(BUILD_DIR)/bin/soak --creations $(N) $(if $(SEED),--seed $(SEED))

bench: build
	@cmake --build $(BUILD_DIR) --target benchmarks -j $(JOBS)
	@tools/run-benchmarks.sh $(BUILD_DIR)

# docs/screenshots/*.png again, from the real window on a virtual X display (the xcb
# platform: the fonts and style a user sees), in English whatever the machine's language.
screenshots: build
	@xvfb-run -a -s "-screen 0 1280x800x24" env -u QT_STYLE_OVERRIDE QT_QPA_PLATFORM=xcb LC_ALL=C.UTF-8 LANGUAGE= \
		$(BUILD_DIR)/bin/screenshots docs/screenshots

# The .deb of the normal build: $(BUILD_DIR)/sandbox-desk_<version>_<arch>.deb.
package: build
	@cmake --build $(BUILD_DIR) --target package -- --no-print-directory

clean:
	rm -rf $(BUILD_DIR) $(ASAN_BUILD_DIR)
