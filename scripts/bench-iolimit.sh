#!/usr/bin/env bash
# The TPC-C mix of two minipg servers at once, locality and classic, each
# allowed the same write bandwidth on the disk of its data directory: a
# machine whose transactions wait on writes rather than on its cores.
#
# Each server is started by hand, loaded (4 warehouses, 4 loaders),
# checkpointed, and only then put in a cgroup of its own whose block-I/O
# write rate is capped (cgroup v1 blkio.throttle.write_bps_device, or v2
# io.max wbps). The cap binds the writes a server's own threads submit:
# WAL fdatasync and the checkpointer's fsyncs. Then the two mixes run at
# once (minipg-bench run -concurrent) and the bytes each cgroup wrote are
# printed. Needs root (cgroups).
#
# Usage: scripts/bench-iolimit.sh OUTDIR [classic-first]
#   BIN=./bin  LIMIT=6291456 (bytes/s per server)  DUR=30m  WAREHOUSES=4
# The servers listen on 127.0.0.1:5601 (locality) and 5602 (classic).
set -euo pipefail
out=${1:?usage: bench-iolimit.sh OUTDIR [classic-first]}
order=${2:-locality-first}
BIN=${BIN:-./bin}
LIMIT=${LIMIT:-6291456}
DUR=${DUR:-30m}
W=${WAREHOUSES:-4}
mkdir -p "$out"
base=$(mktemp -d /tmp/minipg-iolimit.XXXXXX)
settings=(-c autovacuum_naptime=15s -c checkpoint_timeout=1min)
"$BIN/minipg" -D "$base/locality" -p 5601 -c fsm_policy=locality "${settings[@]}" >"$out/locality.log" 2>&1 &
loc=$!
"$BIN/minipg" -D "$base/classic" -p 5602 -c fsm_policy=classic "${settings[@]}" >"$out/classic.log" 2>&1 &
cla=$!
cleanup() {
	kill $loc $cla 2>/dev/null || true
	wait
	rm -rf "$base"
	[ -n "${root:-}" ] && rmdir "$root/minipg-locality" "$root/minipg-classic" 2>/dev/null || true
}
trap cleanup EXIT
sleep 3
dsn() { echo "postgres://postgres@127.0.0.1:$1/postgres?sslmode=disable"; }
targets=(locality classic)
[ "$order" = classic-first ] && targets=(classic locality)
args=()
for t in "${targets[@]}"; do
	port=5601
	[ "$t" = classic ] && port=5602
	"$BIN/minipg-bench" load -dsn "$t=$(dsn $port)" -w "$W" -workers 4 -no-locality -json "$out/load-$t.json" >"$out/load-$t.txt" 2>&1
	psql "$(dsn $port)" -Xqc checkpoint
	args+=(-dsn "$t=$(dsn $port)")
done

# The disk the data directories are on (a partition's parent disk).
dev=$(findmnt -n -o SOURCE --target "$base" | sed 's|^/dev/||')
parent=$(lsblk -no PKNAME "/dev/$dev" 2>/dev/null | head -1 || true)
[ -n "$parent" ] && dev=$parent
majmin=$(lsblk -dno MAJ:MIN "/dev/$dev" | tr -d ' ')
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	root=/sys/fs/cgroup
	echo +io >"$root/cgroup.subtree_control"
	for t in locality classic; do
		mkdir -p "$root/minipg-$t"
		echo "$majmin wbps=$LIMIT" >"$root/minipg-$t/io.max"
	done
	written() { awk -v d="$majmin" '$1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^wbytes=/) { sub("wbytes=", "", $i); print $i } }' "$root/minipg-$1/io.stat"; }
else
	root=/sys/fs/cgroup/blkio
	for t in locality classic; do
		mkdir -p "$root/minipg-$t"
		echo "$majmin $LIMIT" >"$root/minipg-$t/blkio.throttle.write_bps_device"
	done
	written() { awk -v d="$majmin" '$1 == d && $2 == "Write" { print $3 }' "$root/minipg-$1/blkio.throttle.io_service_bytes"; }
fi
echo $loc >"$root/minipg-locality/cgroup.procs"
echo $cla >"$root/minipg-classic/cgroup.procs"
before_loc=$(written locality || echo 0)
before_cla=$(written classic || echo 0)
"$BIN/minipg-bench" run "${args[@]}" -concurrent -w "$W" -terminals 8 -duration "$DUR" -json "$out/run.json" | tee "$out/run.txt"
echo "bytes written to $dev by each server's threads during the mix (cap $LIMIT bytes/s each):"
echo "locality $(($(written locality || echo 0) - before_loc))"
echo "classic $(($(written classic || echo 0) - before_cla))"
