package snapdir

import (
	"fmt"
	"os"
	"runtime/debug"
	"syscall"
)

// verifyIndex verifies the first n bytes of f, its index part, through a read-only
// shared mapping that lives only as long as this call. The checksum pass reads the
// pages where they lie in the page cache instead of copying them into the host's heap
// (where 100k items' index part, 120 MiB, stayed as long as the file served), and once
// unmapped they no longer count in the host's resident memory. Nothing of the mapping
// escapes: openIndexBytes copies what it keeps, so no reader can outlive the mapping.
// Where the file cannot be mapped it is read into a buffer that is dropped afterwards.
func verifyIndex(f *os.File, n int) (env string, meta Meta, err error) {
	// MAP_POPULATE maps every page in one call, instead of a fault every few pages.
	data, err := syscall.Mmap(int(f.Fd()), 0, n, syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return readIndex(f, n)
	}
	defer func() { _ = syscall.Munmap(data) }()
	// A file truncated while mapped faults (SIGBUS) where a read would come up short:
	// that is a file being rewritten, an error to report, not a reason to crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = fmt.Errorf("read snapshot: the file changed while it was read (%v)", r)
		}
	}()
	return openIndexBytes(data)
}
