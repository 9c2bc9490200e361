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
# Speed where it counts, size everywhere else. -opt=2 with -speed-prefixes (our patch to
# TinyGo, speed-prefixes.patch) compiles for speed the evaluator, the snapshot reader
# (with its inflater), the runtime, and the path every answer takes out: the JSON reader
# and writer, the router, GraphQL and the wire frames. Every other function (the DSL
# and query_string parsers, REST's parameters, dates, analysis, automata) is compiled
# for size as -opt=z does. Measured in wazero at 100k generated items against the all-size module
# (-opt=z), in one run: query_string of 3 words 0.88x the CPU time, of 2 words 0.82x, a
# long match 0.80x, a date range's page 0.60x; for 817,568 bytes instead of 736,065.
# The answer path, added later for 86 KB, measured at 9k items against the module
# without it, 16 alternating rounds: REST one item 0.87x, a REST sorted page 0.93x, a
# GraphQL list of 10 0.84x (with the GraphQL parser, 0.95x of that again), searches
# unchanged. The DSL and query_string parsers too would cost 103 KB more for 0.96x on a
# two-word search; all of the module at -opt=2 is 1,047,154 bytes, at the 1 MiB budget.
# CDA_TINYGO_OPT=z builds the all-size module; CDA_TINYGO_SPEED= (empty) with the
# default -opt=2 compiles all of it for speed.
OPT=${CDA_TINYGO_OPT:-2}
P=github.com/cdaedge/cdaedge
SPEED=${CDA_TINYGO_SPEED-$P/edge/eval.,$P/snapshot,runtime.,$P/edge/jsonr,$P/edge/jsonw,$P/edge/router,$P/edge/graphql,$P/edge/wire,main.}
tinygo=${1:?usage: build.sh TINYGO OUT} out=${2:?usage: build.sh TINYGO OUT}
log=$(mktemp) full=$(mktemp --suffix=.wasm); trap 'rm -f "$log" "$full"' EXIT
status=0
"$tinygo" build -target=wasip1 -buildmode=c-shared -no-debug -opt="$OPT" -speed-prefixes="$SPEED" -scheduler=none -panic="$PANIC" \
  -ldflags="-extldflags=-zstack-size=$STACK_SIZE" -o "$full" ./wasm 2>"$log" || status=$?
grep -v "is not a recognized feature for this target" "$log" >&2 || true
[ $status -eq 0 ] || exit $status
go run ./wasm/wasmstrip/cmd/wasmstrip "$full" "$out"
cp "$full" "${out%.wasm}.debug.wasm"
