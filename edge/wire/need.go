package wire

// The need-ranges frame: handle's other answer. A module that holds a snapshot's index
// part alone (its item bodies stay where the file lives) answers a request whose items
// it has not cached with this frame instead of a response; the embedder reads the byte
// ranges it names from the snapshot files, hands them over with the module's provide
// export, and gets the response (or another need-ranges frame) back from provide.
//
//	need  = "CDNR" version:u32 count:u32 { snapshot:[32]byte offset:u64 length:u32 }
//
// snapshot is the SHA-256 content hash in the file's header (bytes 32..63), which names
// the file among those the module was given; offset and length are a byte range of that
// file. The bytes handed to provide are the ranges' bytes one after another, in the
// frame's order, with nothing between them.

// NeedMagic is the first four bytes of a need-ranges frame.
const NeedMagic = "CDNR"

// needEntry is the size of one range in a need-ranges frame.
const needEntry = 32 + 8 + 4

// Range is a byte range of one snapshot file, named by its content hash.
type Range struct {
	Snapshot [32]byte
	Offset   uint64
	Length   uint32
}

// AppendNeed appends the need-ranges frame asking for ranges to dst.
func AppendNeed(dst []byte, ranges []Range) []byte {
	dst = grow(dst, headerSize+4+needEntry*len(ranges))
	dst = append(dst, NeedMagic...)
	dst = appendU32(dst, Version)
	dst = appendU32(dst, uint32(len(ranges)))
	for _, r := range ranges {
		dst = append(dst, r.Snapshot[:]...)
		dst = appendU32(dst, uint32(r.Offset))
		dst = appendU32(dst, uint32(r.Offset>>32))
		dst = appendU32(dst, r.Length)
	}
	return dst
}

// IsNeed reports whether frame, an answer of handle or provide, is a need-ranges frame
// rather than a response.
func IsNeed(frame []byte) bool {
	return hasMagic(frame, NeedMagic)
}

// DecodeNeed parses one need-ranges frame that fills data exactly.
func DecodeNeed(data []byte) ([]Range, error) {
	d := decoder{data: data}
	if err := d.header(NeedMagic); err != nil {
		return nil, err
	}
	count := d.u32()
	if d.err != nil {
		return nil, d.err
	}
	if uint64(count) > uint64(len(data)-d.off)/needEntry {
		return nil, ErrTruncated
	}
	ranges := make([]Range, count)
	for i := range ranges {
		copy(ranges[i].Snapshot[:], data[d.off:])
		d.off += 32
		lo, hi := d.u32(), d.u32()
		ranges[i].Offset = uint64(hi)<<32 | uint64(lo)
		ranges[i].Length = d.u32()
	}
	return ranges, d.finish()
}
