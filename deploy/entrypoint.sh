#!/bin/sh
# The container's command: `seahaven serve` on every interface, on $PORT, with $SEAHAVEN_WORKERS worker processes.
#   docker run IMAGE                      serves $SEAHAVEN_WORLD (default crm)
#   docker run IMAGE stripe               serves the world named by the argument (a name, or a module path)
#   docker run IMAGE --max-sessions 500   serves $SEAHAVEN_WORLD with more `seahaven serve` options
# Options given as arguments come last, so they override the defaults set here.
# Environment: PORT (8000), SEAHAVEN_WORLD (crm), SEAHAVEN_WORKERS (auto; empty for one process),
# SEAHAVEN_TOKEN (read by `seahaven serve` itself), SEAHAVEN_ALLOW_HOST (comma-separated names for --allow-host),
# SEAHAVEN_RUNS_DB (--runs-db: a postgres:// URL for curriculum runs shared by several containers).
set -eu
case "${1:-}" in
  '' | -*) set -- "${SEAHAVEN_WORLD:-crm}" "$@" ;;
esac
if [ -n "${SEAHAVEN_ALLOW_HOST:-}" ]; then
  set -f # a name of '*' is a name, not a glob
  old_ifs=$IFS
  IFS=,
  for name in $SEAHAVEN_ALLOW_HOST; do
    if [ -n "$name" ]; then set -- --allow-host "$name" "$@"; fi
  done
  IFS=$old_ifs
  set +f
fi
if [ -n "${SEAHAVEN_RUNS_DB:-}" ]; then set -- --runs-db "$SEAHAVEN_RUNS_DB" "$@"; fi
if [ -n "${SEAHAVEN_WORKERS:-}" ]; then set -- --workers "$SEAHAVEN_WORKERS" "$@"; fi
exec node "$(dirname "$0")/../packages/seahaven/bin/seahaven.mjs" serve --host 0.0.0.0 --port "${PORT:-8000}" "$@"
