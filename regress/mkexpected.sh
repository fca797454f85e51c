#!/usr/bin/env bash
# Regenerates expected/*.out by running each script against a real PostgreSQL 15,
# each in a freshly created database, exactly as the runner runs them against minipg,
# and records in expected/PSQL_VERSION which psql produced them.
# Usage: PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres PGPASSWORD=... ./mkexpected.sh [name ...]
# PSQL=/path/to/psql picks another psql binary (it must be psql 15).
set -euo pipefail
cd "$(dirname "$0")"
psql=${PSQL:-psql}
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	names=($(sed -n 's/^test://p' schedule))
fi
export PGTZ=UTC PGDATESTYLE='ISO, MDY' PGAPPNAME=pg_regress
# Scripts start other sessions with \! "$PSQL" ...: they reach the same database.
export PSQL="$psql" PGDATABASE=regression
version=$("$psql" --version)
case "$version" in
"psql (PostgreSQL) 15."*) ;;
*) echo "mkexpected.sh: $version: the expected files are made with psql 15" >&2; exit 1 ;;
esac
"$psql" -X -q -d postgres -c 'select version()' | grep -q 'PostgreSQL 15' || { echo "not PostgreSQL 15" >&2; exit 1; }
for n in "${names[@]}"; do
	"$psql" -X -q -d postgres -c 'drop database if exists regression' -c 'create database regression'
	"$psql" -X -a -q -d regression < "sql/$n.sql" > "expected/$n.out" 2>&1 || true
	echo "expected/$n.out"
done
echo "$version" > expected/PSQL_VERSION
