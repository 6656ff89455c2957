#!/usr/bin/env bash
# Starts (installing if needed) a local PostgreSQL and prints the URL of a database the tests may
# use. Used by .ci/run, and by developers: export AGENT_CONTRACTS_PG_URL="$(bash .ci/postgres.sh)"
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
cluster=$(pg_lsclusters -h | awk 'NR==1 {print $1" "$2}')
if [ -z "$cluster" ]; then
  pg_createcluster 15 main >&2
  cluster="15 main"
fi
pg_ctlcluster $cluster start >&2 2>/dev/null || true
port=$(pg_lsclusters -h | awk 'NR==1 {print $3}')
for _ in $(seq 1 30); do
  if su postgres -c "psql -p $port -qAtc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 1
done
su postgres -c "psql -p $port -qAtc 'select 1'" >/dev/null || { echo "PostgreSQL did not start" >&2; exit 1; }
su postgres -c "psql -p $port -qAt" >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'agent_contracts') THEN
    CREATE ROLE agent_contracts LOGIN PASSWORD 'agent_contracts' CREATEDB;
  END IF;
END \$\$;
SELECT 'CREATE DATABASE agent_contracts OWNER agent_contracts'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'agent_contracts')\gexec
SQL
echo "postgres://agent_contracts:agent_contracts@127.0.0.1:${port}/agent_contracts"
