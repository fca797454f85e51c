#!/usr/bin/env bash
# pgbench's TPC-B-like script against a fresh minipg, and against the
# PostgreSQL at PGDSN side by side when it is set: `pgbench -i -s SCALE` on
# each, then for each protocol mode (simple, extended, prepared) ROUNDS runs
# of `pgbench -c CLIENTS -j 2 -T SECONDS`, the targets' order alternated per
# round; prints each run's tps and the median per mode and target, with the
# ratio minipg / PostgreSQL.
# Usage: scripts/bench-pgbench.sh [scale] [seconds] [rounds] [clients]
# PGDSN must name a database pgbench may overwrite (it drops and creates
# the pgbench_* tables).
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-10} secs=${2:-60} rounds=${3:-1} clients=${4:-8}
command -v pgbench >/dev/null || { echo "pgbench not found (apt-get install postgresql-client-15)" >&2; exit 1; }
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./bin/minipg -D "$dir/data" -p "$port" -h 127.0.0.1 > "$dir/server.log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
	(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
	sleep 0.1
done
targets=(minipg)
declare -A dsn=([minipg]="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable")
if [ -n "${PGDSN:-}" ]; then
	targets+=(postgresql)
	dsn[postgresql]=$PGDSN
fi
for t in "${targets[@]}"; do
	echo "== $t: pgbench -i -s $scale"
	pgbench -q -i -s "$scale" "${dsn[$t]}" 2>&1 | tail -1
done
declare -A tps
for mode in simple extended prepared; do
	for r in $(seq 1 "$rounds"); do
		order=("${targets[@]}")
		if [ $((r % 2)) -eq 0 ]; then order=($(printf '%s\n' "${targets[@]}" | tac)); fi
		for t in "${order[@]}"; do
			out=$(pgbench -n -c "$clients" -j 2 -T "$secs" -M "$mode" "${dsn[$t]}" 2>&1) || { echo "$out" >&2; exit 1; }
			v=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<< "$out")
			failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<< "$out")
			echo "$mode round $r $t: tps $v, failed ${failed:-0}"
			tps[$mode,$t]="${tps[$mode,$t]:-} $v"
		done
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf '\n%-9s %12s %12s %7s\n' mode minipg postgresql ratio
for mode in simple extended prepared; do
	m=$(median <<< "${tps[$mode,minipg]}")
	if [ -n "${PGDSN:-}" ]; then
		p=$(median <<< "${tps[$mode,postgresql]}")
		printf '%-9s %12.0f %12.0f %7.2f\n' "$mode" "$m" "$p" "$(awk -v a="$m" -v b="$p" 'BEGIN {print a/b}')"
	else
		printf '%-9s %12.0f %12s %7s\n' "$mode" "$m" - -
	fi
done
