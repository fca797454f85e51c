#!/usr/bin/env bash
# Runs the unmodified BenchmarkSQL 5 (petergeoghegan/benchmarksql, the 5.0
# release, built with ant, pgjdbc 42.x from Debian's libpostgresql-jdbc-java)
# against one or more servers: the database build (runDatabaseBuild.sh), then
# ROUNDS rounds of MINS-minute runs (runBenchmark.sh) with the targets'
# order alternated each round, then BenchmarkSQL's run/checks/checks.sql on
# each. Prints tpmC and tpmTOTAL per run and every check line.
#
# usage: scripts/benchmarksql.sh [-w warehouses] [-t terminals] [-m minutes] [-r rounds]
#                                [-d workdir] NAME=host:port/db ...
# e.g.   scripts/benchmarksql.sh minipg=127.0.0.1:5433/postgres pg=127.0.0.1:5432/bsql
# PGUSER and PGPASSWORD (default postgres/postgres) are used for every target.
# Needs git, ant, java 17, psql and network access to github.com.
set -euo pipefail
w=1 terms=4 mins=2 rounds=2 work=${TMPDIR:-/tmp}/benchmarksql
while getopts w:t:m:r:d: o; do
	case $o in
	w) w=$OPTARG ;; t) terms=$OPTARG ;; m) mins=$OPTARG ;; r) rounds=$OPTARG ;; d) work=$OPTARG ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,14p' "$0"; exit 2; }
user=${PGUSER:-postgres} pass=${PGPASSWORD:-postgres}
release=da69cdb  # "Release 5.0"
checks=febde13   # the commit that added run/checks/checks.sql
jdbc=$(ls /usr/share/java/postgresql-42*.jar 2>/dev/null | head -1 || true)
[ -n "$jdbc" ] || { echo "pgjdbc 42.x not found: apt-get install libpostgresql-jdbc-java" >&2; exit 1; }
command -v ant >/dev/null || { echo "ant not found: apt-get install ant" >&2; exit 1; }

src=$work/benchmarksql
if [ ! -d "$src/.git" ]; then
	git clone -q https://github.com/petergeoghegan/benchmarksql "$src"
fi
git -C "$src" checkout -q -f $release
git -C "$src" show $checks:run/checks/checks.sql > "$work/checks.sql"
rm -f "$src"/lib/postgres/*.jar
cp "$jdbc" "$src/lib/postgres/"
(cd "$src" && ant -q dist >/dev/null)

names=()
for t in "$@"; do
	name=${t%%=*} addr=${t#*=}
	hostport=${addr%%/*} db=${addr#*/}
	names+=("$name")
	cat > "$work/$name.properties" <<PROPS
db=postgres
driver=org.postgresql.Driver
conn=jdbc:postgresql://$hostport/$db
user=$user
password=$pass
warehouses=$w
loadWorkers=2
terminals=$terms
runTxnsPerTerminal=0
runMins=$mins
limitTxnsPerMin=10000000
terminalWarehouseFixed=false
newOrderWeight=45
paymentWeight=43
orderStatusWeight=4
deliveryWeight=4
stockLevelWeight=4
PROPS
	echo "== $name: database build"
	(cd "$src/run" && ./runDatabaseDestroy.sh "$work/$name.properties" >/dev/null 2>&1 || true)
	(cd "$src/run" && ./runDatabaseBuild.sh "$work/$name.properties" > "$work/$name-build.log" 2>&1)
	errs=$(grep -c -i -E 'error|exception' "$work/$name-build.log" || true)
	echo "   errors in the build log: $errs"
done

for r in $(seq 1 "$rounds"); do
	order=("${names[@]}")
	if [ $((r % 2)) -eq 0 ]; then
		order=()
		for ((i = ${#names[@]} - 1; i >= 0; i--)); do order+=("${names[$i]}"); done
	fi
	for name in "${order[@]}"; do
		log=$work/$name-run-$r.log
		(cd "$src/run" && ./runBenchmark.sh "$work/$name.properties" > "$log" 2>&1)
		errs=$(grep -c -i -E 'error|exception' "$log" || true)
		tpmc=$(sed -n 's/.*Measured tpmC (NewOrders) = //p' "$log")
		total=$(sed -n 's/.*Measured tpmTOTAL = //p' "$log")
		echo "round $r $name: tpmC $tpmc tpmTOTAL $total errors $errs"
	done
done

for t in "$@"; do
	name=${t%%=*} addr=${t#*=}
	hostport=${addr%%/*} db=${addr#*/}
	echo "== $name: checks.sql"
	PGPASSWORD=$pass psql -X -q -h "${hostport%%:*}" -p "${hostport##*:}" -U "$user" -d "$db" -f "$work/checks.sql" |
		grep -E '^ (OK|ERROR|FAIL)' || true
done
