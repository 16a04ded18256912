# trnsci — the two commands a new user needs:
#   make run    install dependencies, build Release, start trnscid in the
#               foreground on the default local socket with every CPU core
#   make test   install dependencies, build, and run every test (unit,
#               integration, interop, sanitizers)
# Extra daemon flags: make run ARGS="--listen 127.0.0.1:7450 --cores 1"

BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc)
ARGS       ?=

.PHONY: all deps build build-asan run test test-release test-asan bench install clean format

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

run: build
	$(BUILD)/trnscid $(ARGS)

test-release: build
	ctest --test-dir $(BUILD) --output-on-failure

test-asan: build-asan
	ctest --test-dir $(BUILD_ASAN) --output-on-failure

test: test-release test-asan

bench: build
	./bench/run_gemm.sh $(BUILD)

install: build
	cmake --install $(BUILD)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
