// A minimal WASI (wasi_snapshot_preview1) shim for the cdaedge query module: exactly the
// functions a Go or TinyGo reactor imports, in ~100 lines, for any JavaScript runtime with
// WebAssembly (Node, Cloudflare workerd, browsers). The module opens no files or
// sockets: fds 1 and 2 are line-buffered to a callback, there are no preopens, no
// arguments and no environment. See wasm/README.md ("Imports").

const ESUCCESS = 0, EBADF = 8, EINVAL = 28, ENOSYS = 52, ESPIPE = 70;

/** Thrown by proc_exit: the instance is dead and must be discarded. */
export class WasiExit extends Error {
  constructor(code) { super(`wasm module exited with code ${code}`); this.code = code; }
}

/** The names of the functions this shim implements (anything else is a link error). */
export const WASI_FUNCTIONS = Object.freeze([
  'args_get', 'args_sizes_get', 'clock_time_get', 'environ_get', 'environ_sizes_get',
  'fd_close', 'fd_fdstat_get', 'fd_fdstat_set_flags', 'fd_prestat_dir_name', 'fd_prestat_get',
  'fd_seek', 'fd_write', 'poll_oneoff', 'proc_exit', 'random_get', 'sched_yield',
]);

/**
 * createWasi returns {imports, bind}: pass imports to WebAssembly.instantiate and call
 * bind(instance) before the first export call. output(fd, line) receives the lines the
 * module writes to stdout (1) and stderr (2); the default sends them to console.error.
 */
export function createWasi({ output = (fd, line) => console.error(line) } = {}) {
  let memory = null;
  const dv = () => new DataView(memory.buffer); // a fresh view: memory may have grown
  const td = new TextDecoder();
  const pending = { 1: '', 2: '' };
  const clockStart = typeof performance !== 'undefined' ? performance.now() : Date.now();
  const now = (id) => {
    if (id === 0) return BigInt(Date.now()) * 1000000n; // realtime
    const ms = (typeof performance !== 'undefined' ? performance.now() : Date.now()) - clockStart;
    return BigInt(Math.round(ms * 1e6)) + 1n; // monotonic, process and thread clocks
  };
  const wasi = {
    args_sizes_get(argc, bufSize) { const v = dv(); v.setUint32(argc, 0, true); v.setUint32(bufSize, 0, true); return ESUCCESS; },
    args_get() { return ESUCCESS; },
    environ_sizes_get(n, bufSize) { const v = dv(); v.setUint32(n, 0, true); v.setUint32(bufSize, 0, true); return ESUCCESS; },
    environ_get() { return ESUCCESS; },
    clock_time_get(id, _precision, out) {
      if (id < 0 || id > 3) return EINVAL;
      dv().setBigUint64(out, now(id), true); return ESUCCESS;
    },
    random_get(ptr, len) {
      const buf = new Uint8Array(memory.buffer, ptr, len);
      for (let o = 0; o < len; o += 65536) crypto.getRandomValues(buf.subarray(o, Math.min(len, o + 65536)));
      return ESUCCESS;
    },
    fd_write(fd, iovs, iovsLen, nwritten) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = dv(); let total = 0, text = '';
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
        text += td.decode(new Uint8Array(memory.buffer, ptr, len), { stream: true }); total += len;
      }
      const lines = (pending[fd] + text).split('\n');
      pending[fd] = lines.pop();
      for (const line of lines) output(fd, line);
      v.setUint32(nwritten, total, true); return ESUCCESS;
    },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const v = dv();
      v.setUint8(out, 2); v.setUint16(out + 2, 0, true); // character device, no flags
      v.setBigUint64(out + 8, 0xffffffffn, true); v.setBigUint64(out + 16, 0n, true);
      return ESUCCESS;
    },
    fd_fdstat_set_flags(fd) { return fd > 2 ? EBADF : ESUCCESS; },
    fd_prestat_get() { return EBADF; },        // no preopened directories
    fd_prestat_dir_name() { return EBADF; },
    fd_close(fd) { return fd > 2 ? EBADF : ESUCCESS; },
    fd_seek(fd) { return fd > 2 ? EBADF : ESPIPE; },
    poll_oneoff(subs, events, nsubs, nevents) {
      // Nothing blocks here: report every subscription as ready at once.
      const v = dv();
      for (let i = 0; i < nsubs; i++) {
        const s = subs + 48 * i, e = events + 32 * i;
        v.setBigUint64(e, v.getBigUint64(s, true), true); // userdata
        v.setUint16(e + 8, ESUCCESS, true); v.setUint8(e + 10, v.getUint8(s + 8));
        for (let k = 11; k < 32; k++) v.setUint8(e + k, 0);
      }
      v.setUint32(nevents, nsubs, true); return ESUCCESS;
    },
    sched_yield() { return ESUCCESS; },
    proc_exit(code) { throw new WasiExit(code); },
  };
  for (const name of Object.keys(wasi)) if (!WASI_FUNCTIONS.includes(name)) throw new Error('wasi shim: unlisted ' + name);
  return {
    imports: { wasi_snapshot_preview1: wasi },
    bind(instance) { memory = instance.exports.memory; },
    ENOSYS,
  };
}
