# minipg — see README.md.
GO      ?= go
TAGS    ?= invariants
DATADIR ?= data
PORT    ?= 5433
# Packages whose tests also run under the race detector.
RACE_PKGS ?= ./storage/... ./txn/... ./index/... ./catalog/... ./server/... ./executor/...

.PHONY: all build run test unit race regress crash bench bench-wal vet fmt clean

all: build

build:
	$(GO) build -o bin/minipg ./cmd/minipg
	$(GO) build -o bin/minipg-bench ./cmd/minipg-bench

# Builds and starts the server on 127.0.0.1:$(PORT) with data directory $(DATADIR).
run:
	$(GO) build -o bin/minipg ./cmd/minipg
	./bin/minipg -D $(DATADIR) -p $(PORT) -h 127.0.0.1

# The full suite: unit, client and regression tests (with invariant checks),
# then the concurrency-heavy packages again under the race detector.
test: unit race

unit:
	$(GO) test -tags $(TAGS) -count=1 -timeout 9m ./...

race:
	$(GO) test -race -short -tags $(TAGS) -count=1 -timeout 9m $(RACE_PKGS)

# Only the SQL regression scripts (regress/sql against regress/expected).
regress:
	$(GO) test -tags $(TAGS) -count=1 -run TestRegress -v ./regress/

# The long durability run: CRASH_CYCLES workloads (DML, COPY, VACUUM with
# truncation, DDL, checkpoints) killed with SIGKILL over one data directory,
# each restart checked for lost and phantom changes; prints the figures.
# MINIPG_CRASH_SEED=n repeats a run's modes and kill times.
CRASH_CYCLES ?= 100
crash:
	MINIPG_CRASH_CYCLES=$(CRASH_CYCLES) $(GO) test -tags $(TAGS) -count=1 -timeout 60m -run '^TestCrashCycles$$' -v ./crashtest/ | grep -v '^=== RUN'

# Go benchmarks of the storage layer, then the pgx benchmark against a fresh
# server (and PostgreSQL side by side when PGDSN is set, e.g.
# PGDSN=postgres://postgres:secret@127.0.0.1:5432/postgres).
PGDSN ?=
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./storage/... ./index/...
	./bin/minipg-bench rt -server ./bin/minipg $(if $(PGDSN),-pg '$(PGDSN)') $(BENCHFLAGS)
	PGDSN='$(PGDSN)' scripts/bench-wal.sh

# WAL records, full-page images and bytes per 1,000 TPC-C New-Orders.
bench-wal: build
	PGDSN='$(PGDSN)' scripts/bench-wal.sh

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)

clean:
	rm -rf bin
