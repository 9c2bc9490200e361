#!/usr/bin/env bash
# Installs TinyGo $TINYGO_VERSION for building the query module (go tool task tools).
# No package manager here ships TinyGo, so it is built from its Go module against
# Debian's LLVM 19, with wasi-libc and compiler-rt taken from Debian's packages (the
# module zip lacks TinyGo's git submodules). Idempotent: does nothing when the right
# version is installed. Usage: install.sh DIR   (DIR/bin/tinygo is the result)
set -euo pipefail
TINYGO_VERSION=0.41.1
DIR=${1:?usage: install.sh DIR}
APT_PACKAGES=(llvm-19-dev clang-19 lld-19 libclang-19-dev libclang-rt-19-dev-wasm32 wasi-libc binaryen g++ patch)
# Patches to TinyGo's sources. Each names a marker that shows it is applied. The
# runtime's sources are compiled into every module TinyGo builds, so an installed tree is
# patched in place; a patch to the compiler's own sources (COMPILER_PATCHES) is built
# into the tinygo binary, whose bin/.cdaedge-compiler records their hash: when they
# change, TinyGo is installed afresh from its pristine sources.
PATCH_DIR=$(cd "$(dirname "$0")" && pwd)
PATCHES=("gc-large-objects.patch:cdaedge: large objects" "gc-resident.patch:cdaedge: resident"
         "speed-prefixes.patch:cdaedge: speed prefixes")
COMPILER_PATCHES=(speed-prefixes.patch)
log() { echo "tinygo-install: $*" >&2; }

# apply_patches patches DIR's sources where a patch is not applied yet.
apply_patches() {
  local entry file marker target
  for entry in "${PATCHES[@]}"; do
    file=${entry%%:*} marker=${entry#*:}
    target=$(sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$PATCH_DIR/$file" | head -1)
    grep -q "$marker" "$1/$target" && continue
    log "patching $target ($file)"
    patch -s -d "$1" -p1 --forward < "$PATCH_DIR/$file"
  done
}

# compiler_stamp is the hash of the compiler patches a tinygo binary is built with.
compiler_stamp() { (cd "$PATCH_DIR" && cat "${COMPILER_PATCHES[@]}") | sha256sum | cut -d' ' -f1; }

# build_tinygo builds DIR/bin/tinygo from DIR's (patched) sources against LLVM 19.
# The cgo files are thin shims over LLVM's own (already optimised) libraries: compiling
# them at -O0 without debug info took the build from 36 s to 29 s here, and the TinyGo
# so built compiles the module to the same bytes in the same time (26-28 s, noisy).
build_tinygo() {
  log "building tinygo $TINYGO_VERSION (go build -tags=llvm19)"
  (cd "$1" && CGO_ENABLED=1 CGO_CFLAGS=-O0 CGO_CXXFLAGS=-O0 go build -tags=llvm19 -trimpath -o bin/tinygo .)
  compiler_stamp > "$1/bin/.cdaedge-compiler"
}

cache_ready() {
  local c
  c=$("$DIR/bin/tinygo" env GOCACHE 2>/dev/null) || return 1
  [[ -f $c/wasi-libc-wasm32-unknown-wasi-generic/lib.a && -d $c/wasi-libc-wasm32-unknown-wasi-generic/include &&
     -f $c/compiler-rt-wasm32-unknown-wasi-generic/lib.a ]]
}

if [[ -x $DIR/bin/tinygo ]] && "$DIR/bin/tinygo" version 2>/dev/null | grep -q "tinygo version $TINYGO_VERSION " && cache_ready &&
   command -v patch >/dev/null && [[ $(cat "$DIR/bin/.cdaedge-compiler" 2>/dev/null) == "$(compiler_stamp)" ]]; then
  apply_patches "$DIR"
  exit 0 # already there
fi
start=$(date +%s)

# 1. Debian packages (as root, or through sudo).
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=; [[ $(id -u) == 0 ]] || SUDO=sudo
  log "apt-get install ${missing[*]}"
  # One apt-get at a time: the tasks install other tools in parallel, and apt-get fails
  # at once when another holds its lock (the Taskfile passes the lock its tasks take).
  # shellcheck disable=SC2016
  flock "${CDAEDGE_APT_LOCK:-/tmp/cdaedge-apt.lock}" bash -c '
    $0 apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $0 apt-get install -y -qq --no-install-recommends "${@}" >/dev/null
  ' "$SUDO" "${missing[@]}"
fi

# 2. The TinyGo source from the Go module proxy (go install fails: the proxy refuses its
#    version list; a download of the exact version works).
src=$(cd / && GOFLAGS=-mod=mod go mod download -json "github.com/tinygo-org/tinygo@v$TINYGO_VERSION" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -d $src ]] || { log "go mod download of tinygo v$TINYGO_VERSION failed"; exit 1; }

# 3. Build it against LLVM 19 in a fresh tree, then move the tree into place.
tmp="$DIR.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tmp"; mkdir -p "$(dirname "$DIR")"
cp -r "$src" "$tmp"; chmod -R u+w "$tmp"
mkdir -p "$tmp/src/net" # a git submodule, absent from the module zip; the engine needs no net
apply_patches "$tmp"
build_tinygo "$tmp"
rm -rf "$DIR"; mv "$tmp" "$DIR"; trap - EXIT

# 4. wasi-libc and compiler-rt: TinyGo would build them from the missing submodules;
#    give it Debian's archives in its cache, where it looks for them first.
cache=$("$DIR/bin/tinygo" env GOCACHE)
libc="$cache/wasi-libc-wasm32-unknown-wasi-generic" rt="$cache/compiler-rt-wasm32-unknown-wasi-generic"
mkdir -p "$libc" "$rt"
cp /usr/lib/wasm32-wasi/libc.a "$libc/lib.a"
rm -rf "$libc/include"; cp -r /usr/include/wasm32-wasi "$libc/include"
cp /usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a "$rt/lib.a"
log "$("$DIR/bin/tinygo" version) installed in $(( $(date +%s) - start ))s"
