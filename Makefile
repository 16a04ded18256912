# trnsci — the two commands a new user needs:
#   make run    install dependencies, build Release, start trnscid in the
#               foreground on the default local socket with every CPU core
#   make test   install dependencies, build, and run every test (unit,
#               integration, interop, sanitizers, short fuzz runs, and the
#               BLAS tests under each OpenBLAS kernel set the CPU runs)
#   make fuzz   run every libFuzzer target for FUZZ_SECONDS each (default 600)
# Extra daemon flags: make run ARGS="--listen 127.0.0.1:7450 --allow-unauthenticated-tcp --cores 1"

BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 600
# The scheduler's unit tests and the tokens table's reload, run again under
# ThreadSanitizer.
TSAN_TESTS := unit_sched unit_sched_fair unit_plan_cache unit_token_store neuron_core_copy
FUZZ_TARGETS := fuzz_validate fuzz_ring fuzz_tokens fuzz_config fuzz_npy fuzz_program
# OpenBLAS kernel sets the BLAS tests run under (those the CPU lacks are
# skipped): the generic one OpenBLAS falls back to, and the AVX2 and
# AVX-512 ones.
BLAS_CORETYPES := Prescott Haswell SkylakeX Cooperlake
JOBS       ?= $(shell nproc)
ARGS       ?=

.PHONY: all deps build build-asan build-tsan build-fuzz run test test-release test-asan \
	test-tsan test-fuzz test-blas-coretypes fuzz bench install clean format

all: build

deps:
	@./scripts/setup-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTRNSCI_BUILD_TESTS=ON -DTRNSCI_BUILD_BENCH=ON >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

build-asan: deps
	@cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DTRNSCI_SANITIZE=ON \
	    -DTRNSCI_BUILD_TESTS=ON -DTRNSCI_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(BUILD_ASAN) -j$(JOBS)

# Only what the scheduler's tests need is built with ThreadSanitizer.
build-tsan: deps
	@cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRNSCI_SANITIZE=thread \
	    -DTRNSCI_BUILD_TESTS=ON -DTRNSCI_BUILD_BENCH=OFF -DTRNSCI_TEST_SUITES=unit >/dev/null
	@cmake --build $(BUILD_TSAN) -j$(JOBS) --target $(TSAN_TESTS)

# libFuzzer needs clang; each target compiles only the sources it exercises.
build-fuzz: deps
	@CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=Release -DTRNSCI_SANITIZE=fuzz \
	    -DTRNSCI_BUILD_TESTS=ON -DTRNSCI_BUILD_BENCH=OFF -DTRNSCI_TEST_SUITES=fuzz >/dev/null
	@cmake --build $(BUILD_FUZZ) -j$(JOBS) --target $(FUZZ_TARGETS)

run: build
	$(BUILD)/trnscid $(ARGS)

test-release: build
	ctest --test-dir $(BUILD) --output-on-failure

test-asan: build-asan
	ctest --test-dir $(BUILD_ASAN) --output-on-failure

test-tsan: build-tsan
	OPENBLAS_NUM_THREADS=1 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	    ctest --test-dir $(BUILD_TSAN) --output-on-failure \
	    -R '^($(subst $() ,|,$(TSAN_TESTS)))$$'

test-fuzz: build-fuzz
	ctest --test-dir $(BUILD_FUZZ) --output-on-failure -L fuzz

# Long fuzzing runs (FUZZ_SECONDS per target); new inputs stay in the build tree.
fuzz: build-fuzz
	@cmake -S . -B $(BUILD_FUZZ) -DTRNSCI_FUZZ_SECONDS=$(FUZZ_SECONDS) >/dev/null
	ctest --test-dir $(BUILD_FUZZ) --output-on-failure -L fuzz
	@cmake -S . -B $(BUILD_FUZZ) -DTRNSCI_FUZZ_SECONDS=2 >/dev/null

# trnblas's integration tests with OPENBLAS_CORETYPE forced to each kernel set.
test-blas-coretypes: build
	./scripts/test-blas-coretypes.sh $(BUILD) $(BLAS_CORETYPES)

test: test-release test-asan test-tsan test-fuzz test-blas-coretypes

bench: build
	./bench/run_gemm.sh $(BUILD)

install: build
	cmake --install $(BUILD)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_FUZZ)
