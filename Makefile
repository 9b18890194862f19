# docsbot: the commands a newcomer needs. `make test` is what CI runs.
GO ?= go

.PHONY: test check-tools vet fmt-check race topologies bench build

## test: vet, format check, the whole test suite under the race detector, and the store's tests
## against Sentinel and Cluster
test: check-tools fmt-check vet race topologies

check-tools:
	@command -v $(GO) >/dev/null || { echo "Go is not installed: see https://go.dev/doc/install"; exit 1; }
	@command -v redis-server >/dev/null || { echo "redis-server is not installed; the tests start their own. Install it: sudo apt-get install -y redis-server (macOS: brew install redis)"; exit 1; }
	@command -v redis-cli >/dev/null || { echo "redis-cli is not installed (it comes with redis-server: sudo apt-get install -y redis-tools); the Cluster tests need it"; exit 1; }
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || echo "note: no Chromium found, so the sandbox's browser test will be skipped (sudo apt-get install -y chromium)"

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## TESTFLAGS: the build flags of vet and of every test run. -race, as the tests run; -trimpath, so
## that what they compile does not name the checkout's directory: a new clone or worktree of
## unchanged code finds it all in the build cache (go vet of a fresh clone: 1.3 s, against 1m44s)
TESTFLAGS = -race -trimpath

## vet: go vet, built as the tests are (TESTFLAGS), so that the packages it compiles are the ones
## the race run reuses (on a fresh clone this halves the compiling: 1m33s + 1m49s, against 2m34s + 3m04s)
vet:
	$(GO) vet $(TESTFLAGS) ./...
	$(GO) vet $(TESTFLAGS) -tags nosandbox ./cmd/docsbot

## race: every test under the race detector, through cmd/internal/testtimes, which prints what
## `go test` prints, then the slowest packages and tests, and exits as go test did
race:
	$(GO) run -trimpath ./cmd/internal/testtimes -- $(GO) test -json $(TESTFLAGS) -count=1 ./...

## topologies: the store's tests again against Redis with Sentinel and against a Redis Cluster, both
## runs at once (each waits on its servers more than it computes); their output follows, each under
## its command, and the target fails if either did
TOPOLOGIES = sentinel cluster
topologies:
	@dir=$$(mktemp -d); \
	 for t in $(TOPOLOGIES); do \
	   (DOCSBOT_TEST_REDIS=$$t $(GO) test $(TESTFLAGS) -count=1 ./store/ >$$dir/$$t 2>&1; echo $$? >$$dir/$$t.status) & \
	 done; wait; status=0; \
	 for t in $(TOPOLOGIES); do \
	   echo "DOCSBOT_TEST_REDIS=$$t $(GO) test $(TESTFLAGS) -count=1 ./store/"; cat $$dir/$$t; \
	   [ "$$(cat $$dir/$$t.status)" = 0 ] || status=1; \
	 done; rm -rf $$dir; exit $$status

## bench: the benchmarks whose figures are recorded in BENCHMARKS.md
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

build:
	CGO_ENABLED=0 $(GO) build -trimpath -tags=nosandbox -ldflags='-s -w' -o bin/docsbot ./cmd/docsbot
