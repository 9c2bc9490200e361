#!/usr/bin/env bash
# Builds the query module with TinyGo: build.sh TINYGO OUT.
# -scheduler=none: the default (asyncify) scheduler gives multi-millisecond latency spikes
# and the engine runs no goroutines. LLVM 19 does not know two wasm feature names that
# TinyGo 0.41 passes for LLVM 20 (bulk-memory-opt, call-indirect-overlong) and ignores
# them; that warning is filtered out. TinyGo keeps the "name" section even with -no-debug;
# wasmstrip drops it and the other custom sections, which mean nothing at run time.
set -euo pipefail
# The linker's default stack is 64 KB, and TinyGo, unlike Go, does not grow it: recursive
# descent at the parsers' depth limits (64 nested parentheses in query_string, a few KB
# of frame each under -Oz inlining) overflowed it and trapped. 512 KB leaves room for
# every depth limit; --stack-first (TinyGo's default) makes an overflow a clean trap.
STACK_SIZE=524288
# Panics print their message (TinyGo's -panic=print, the default): a panic is only ever a
# bug, since the router answers every input, and its message is what makes it cheap to
# fix. The module has room for it (about 11 KB: the runtime's value printer and a
# message at each bounds check) within its 1 MiB budget. The instance still dies; the JS
# glue and the host log the message with the wasm stack, and a debug twin beside OUT
# (module-tinygo.debug.wasm for module-tinygo.wasm) is the same module with its "name"
# section, to read the stack's function indices. CDA_TINYGO_PANIC=trap builds the
# smaller module that traps without a message.
PANIC=${CDA_TINYGO_PANIC:-print}
# TinyGo optimises for size by default (-opt=z). CDA_TINYGO_OPT=2 optimises for speed:
# measured at 100k generated items in Node, 0.66x the CPU time of a mix of REST, GraphQL
# and search requests and 0.6-0.9x that of searches, for a module of 1,038,285 bytes
# instead of 727,551, 99% of its 1 MiB budget, which leaves no room for features; so it
# is not the default.
OPT=${CDA_TINYGO_OPT:-z}
tinygo=${1:?usage: build.sh TINYGO OUT} out=${2:?usage: build.sh TINYGO OUT}
log=$(mktemp) full=$(mktemp --suffix=.wasm); trap 'rm -f "$log" "$full"' EXIT
status=0
"$tinygo" build -target=wasip1 -buildmode=c-shared -no-debug -opt="$OPT" -scheduler=none -panic="$PANIC" \
  -ldflags="-extldflags=-zstack-size=$STACK_SIZE" -o "$full" ./wasm 2>"$log" || status=$?
grep -v "is not a recognized feature for this target" "$log" >&2 || true
[ $status -eq 0 ] || exit $status
go run ./wasm/wasmstrip/cmd/wasmstrip "$full" "$out"
cp "$full" "${out%.wasm}.debug.wasm"
