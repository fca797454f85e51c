#!/usr/bin/env bash
# WAL figures per 1,000 TPC-C New-Orders: starts bin/minipg on a free port with a
# fresh data directory, loads a small TPC-C database, runs minipg-bench neworders
# (after a CHECKPOINT, reading pg_stat_wal), and stops the server. With PGDSN set,
# the same runs against that PostgreSQL side by side (its database must be loaded
# with the same -w/-scale: minipg-bench load -pg "$PGDSN" ...).
# Usage: scripts/bench-wal.sh [warehouses] [scale]
set -euo pipefail
cd "$(dirname "$0")/.."
w=${1:-1}
scale=${2:-0.1}
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./bin/minipg -D "$dir/data" -p "$port" -h 127.0.0.1 > "$dir/server.log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
dsn="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
for _ in $(seq 100); do
	(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
	sleep 0.1
done
./bin/minipg-bench load -minipg "$dsn" -w "$w" -scale "$scale" -no-locality
if [ -n "${PGDSN:-}" ]; then
	./bin/minipg-bench neworders -minipg "$dsn" -pg "$PGDSN" -n 1000
else
	./bin/minipg-bench neworders -minipg "$dsn" -n 1000
fi
