#!/usr/bin/env bash
# Regenerates expected/*.out by running each script against a real PostgreSQL 15,
# each in a freshly created database, exactly as the runner runs them against minipg.
# Usage: PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres PGPASSWORD=... ./mkexpected.sh [name ...]
set -euo pipefail
cd "$(dirname "$0")"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	names=($(sed -n 's/^test://p' schedule))
fi
export PGTZ=UTC PGDATESTYLE='ISO, MDY' PGAPPNAME=pg_regress
psql -X -q -d postgres -c 'select version()' | grep -q 'PostgreSQL 15' || { echo "not PostgreSQL 15" >&2; exit 1; }
for n in "${names[@]}"; do
	psql -X -q -d postgres -c 'drop database if exists regression' -c 'create database regression'
	psql -X -a -q -d regression < "sql/$n.sql" > "expected/$n.out" 2>&1 || true
	echo "expected/$n.out"
done
