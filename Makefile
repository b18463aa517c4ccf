# dbgov's build and test entry points. `make test` is what CI runs.

GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
LDFLAGS  := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
BIN      := bin/dbgov
STATICCHECK ?= v0.8.2
# The race detector needs cgo, so a C compiler: without one, tests run without it.
RACE     ?= $(if $(filter 1,$(shell $(GO) env CGO_ENABLED)),-race)

.PHONY: all build test bench lint demo fuzz clean

all: build

## build: compile bin/dbgov, static, with its version and commit stamped in
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/dbgov

## test: go vet, then every test (end-to-end tests included), with the race detector where cgo works
test:
	$(GO) vet ./...
	$(GO) test $(RACE) -count=1 ./...

## bench: Go benchmarks of the hot paths, then dbgov run whole, 7 times each, beside curl and jq (bench/results.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem $$($(GO) list ./... | grep -v /bench$$)
	$(GO) test -run '^$$' -bench . -benchtime 1x -count 7 -timeout 60m ./bench

## lint: gofmt check, go vet, and staticcheck when it installs from the module proxy
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) -version >/dev/null 2>&1; then \
		$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) ./...; \
	else echo "staticcheck could not be installed; skipped"; fi

## demo: build dbgov, start the reference server, run a few commands against it, stop it
demo: build
	./scripts/demo.sh $(BIN)

## fuzz: run each fuzz target for FUZZTIME (default 30s)
FUZZTIME ?= 30s
fuzz:
	@grep -rl --include='*_test.go' '^func Fuzz' . | while read -r f; do \
		pkg=$$(dirname $$f); \
		for fn in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' $$f | cut -d' ' -f2); do \
			echo "== $$pkg $$fn"; $(GO) test $$pkg -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done

clean:
	rm -rf bin
