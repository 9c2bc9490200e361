//go:build tinygo

// arc4random for TinyGo's runtime, which calls it to seed its hashes. wasi-libc's
// version carries an assert whose failure path links musl's printf and stdio: about
// 18 KB of a module that prints only panic messages. Being defined here, the
// archive member is not linked. The entropy comes from the same WASI call.

#include <stdint.h>

__attribute__((import_module("wasi_snapshot_preview1"), import_name("random_get")))
extern uint16_t wasi_random_get(uint8_t *buf, uint32_t len);

uint32_t arc4random(void) {
	uint32_t v;
	if (wasi_random_get((uint8_t *)&v, sizeof v) != 0) {
		__builtin_trap(); // no entropy: nothing sensible to do, as wasi-libc's abort
	}
	return v;
}
