#!/usr/bin/env bash
# Builds the query module with TinyGo: build.sh TINYGO OUT.
# -scheduler=none: the default (asyncify) scheduler gives multi-millisecond latency spikes
# and the engine runs no goroutines. LLVM 19 does not know two wasm feature names that
# TinyGo 0.41 passes for LLVM 20 (bulk-memory-opt, call-indirect-overlong) and ignores
# them; that warning is filtered out.
set -euo pipefail
tinygo=${1:?usage: build.sh TINYGO OUT} out=${2:?usage: build.sh TINYGO OUT}
log=$(mktemp); trap 'rm -f "$log"' EXIT
status=0
"$tinygo" build -target=wasip1 -buildmode=c-shared -no-debug -scheduler=none -o "$out" ./wasm 2>"$log" || status=$?
grep -v "is not a recognized feature for this target" "$log" >&2 || true
exit $status
