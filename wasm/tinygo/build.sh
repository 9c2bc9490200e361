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
# TinyGo, speed-prefixes.patch) compiles the evaluator, the snapshot reader (with its
# inflater) and the runtime for speed, and every other function for size as -opt=z does.
# Measured in wazero at 100k generated items against the all-size module (-opt=z), in
# one run: query_string of 3 words 0.88x the CPU time, of 2 words 0.82x, a long match
# 0.80x, a date range's page 0.60x, REST and GraphQL 0.97-0.99x; for 817,568 bytes
# instead of 736,065. All of the module at -opt=2 is a little faster still (the long
# match 0.9x of this) but 1,053,759 bytes, over the 1 MiB budget; the other engine
# packages at -opt=2 gave nothing measurable for 200 KB more. CDA_TINYGO_OPT=z builds the
# all-size module; CDA_TINYGO_SPEED= (empty) with the default -opt=2 compiles all of it
# for speed.
OPT=${CDA_TINYGO_OPT:-2}
SPEED=${CDA_TINYGO_SPEED-github.com/cdaedge/cdaedge/edge/eval.,github.com/cdaedge/cdaedge/snapshot,runtime.}
tinygo=${1:?usage: build.sh TINYGO OUT} out=${2:?usage: build.sh TINYGO OUT}
log=$(mktemp) full=$(mktemp --suffix=.wasm); trap 'rm -f "$log" "$full"' EXIT
status=0
"$tinygo" build -target=wasip1 -buildmode=c-shared -no-debug -opt="$OPT" -speed-prefixes="$SPEED" -scheduler=none -panic="$PANIC" \
  -ldflags="-extldflags=-zstack-size=$STACK_SIZE" -o "$full" ./wasm 2>"$log" || status=$?
grep -v "is not a recognized feature for this target" "$log" >&2 || true
[ $status -eq 0 ] || exit $status
go run ./wasm/wasmstrip/cmd/wasmstrip "$full" "$out"
cp "$full" "${out%.wasm}.debug.wasm"
