# minipg — see README.md.
GO      ?= go
TAGS    ?= invariants
DATADIR ?= data
PORT    ?= 5433
# Packages whose tests also run under the race detector.
RACE_PKGS ?= ./storage/... ./txn/... ./index/... ./catalog/... ./server/... ./executor/...

.PHONY: all build run test unit unit-memory race regress crash bench bench-pgbench bench-wal bench-report vet fmt clean

all: build

build:
	$(GO) build -o bin/minipg ./cmd/minipg
	$(GO) build -o bin/minipg-bench ./cmd/minipg-bench
	$(GO) build -o bin/minipg-sqlcompare ./cmd/minipg-sqlcompare

# Builds and starts the server on 127.0.0.1:$(PORT) with data directory $(DATADIR).
run:
	$(GO) build -o bin/minipg ./cmd/minipg
	./bin/minipg -D $(DATADIR) -p $(PORT) -h 127.0.0.1

# The full suite: unit, client and regression tests (with invariant checks),
# the executor's and the regression tests again with in-memory indexes, then
# the concurrency-heavy packages again under the race detector.
test: unit unit-memory race

unit:
	$(GO) test -tags $(TAGS) -count=1 -timeout 9m ./...

# `unit` runs with the server's default index storage (disk); the packages
# where the storage matters most, whose test servers follow
# MINIPG_TEST_INDEX_STORAGE, run again with index_storage = memory. (Tests
# of one storage in particular set it themselves and run the same way twice.)
MEMORY_PKGS ?= ./executor/ ./regress/
unit-memory:
	MINIPG_TEST_INDEX_STORAGE=memory $(GO) test -tags $(TAGS) -count=1 -timeout 9m $(MEMORY_PKGS)

# The heap's suite runs once per free-space policy in `unit`; under the race
# detector it runs with the default policy only (MINIPG_FSM_POLICY).
race:
	MINIPG_FSM_POLICY=locality $(GO) test -race -short -tags $(TAGS) -count=1 -timeout 9m $(RACE_PKGS)

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
	PGDSN='$(PGDSN)' scripts/bench-pgbench.sh $(PGBENCH_ARGS)

# pgbench's TPC-B-like run in the three protocol modes (scale 10, 60 s, 8
# clients by default: PGBENCH_ARGS="scale seconds rounds clients"), with
# PostgreSQL side by side when PGDSN names a database pgbench may overwrite.
PGBENCH_ARGS ?=
bench-pgbench: build
	PGDSN='$(PGDSN)' scripts/bench-pgbench.sh $(PGBENCH_ARGS)

# WAL records, full-page images and bytes per 1,000 TPC-C New-Orders.
bench-wal: build
	PGDSN='$(PGDSN)' scripts/bench-wal.sh

# The short version of the three experiments minipg is built on (TPC-C
# layout after a load and a Delivery pass, small tables without a free space
# map, relation extension under concurrency), each against a fresh minipg
# per fsm_policy and PostgreSQL when PGDSN is set (its bmsql_* tables in
# schema minipg_bench, scratch tables in the database of the DSN), the
# JSON of every run and one report page in $(BENCH_RESULTS)/.
BENCH_RESULTS ?= bench-results
BENCH_PG = $(if $(PGDSN),-pg '$(PGDSN)')
bench-report: build
	mkdir -p $(BENCH_RESULTS)
	./bin/minipg-bench load -server ./bin/minipg $(BENCH_PG) -schema minipg_bench -w 1 -scale 0.1 -workers 4 \
		-json $(BENCH_RESULTS)/load.json
	./bin/minipg-bench delivery-pass -server ./bin/minipg $(BENCH_PG) -schema minipg_bench -load -w 1 -scale 0.1 \
		-workers 4 -per-district 20 -json $(BENCH_RESULTS)/delivery-pass.json
	./bin/minipg-bench smalltables -server ./bin/minipg $(BENCH_PG) -tables 20 -blocks 1,2,4,8 -runs 5 \
		-file-tables 200 -json $(BENCH_RESULTS)/smalltables.json
	./bin/minipg-bench extend -server ./bin/minipg $(BENCH_PG) -clients 1,4,16 -duration 1s -rounds 2 \
		-json $(BENCH_RESULTS)/extend.json
	./bin/minipg-bench report --html $(BENCH_RESULTS)/report.html $(BENCH_RESULTS)/load.json \
		$(BENCH_RESULTS)/delivery-pass.json $(BENCH_RESULTS)/smalltables.json $(BENCH_RESULTS)/extend.json

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)

clean:
	rm -rf bin
