package snapshot

import (
	"errors"
	"hash/crc32"
	"math/bits"
)

// Format constants. A reader accepts any minor version of the major versions it reads
// (2 and 3): minor versions only add sections and field flags, which older readers
// ignore. Format 3.1 stores the sort orders bit-packed, in a section and under a field
// flag of their own (fieldHasPackedPerms): 0.53x their size at 100k items. Format 3.2
// adds where each item's Data member ends (bodies.dataends, about two bytes an item).
//
// Format 2 splits the file in two parts. The index part (the header, every section and
// the section table) is what a query needs to decide which items answer it; it is
// loaded whole, and one checksum covers it. The body part (the items' JSON, in blocks of
// about BodyBlockTarget bytes, each stored deflated, starting on a bodyAlign boundary)
// is what answers return; a runtime may leave it where the file lives and read blocks
// by range, each checked by its own checksum stored in the index part.
//
// Format 3 moves the term dictionaries' blocks, the postings lists and the common
// terms' bitmaps, three quarters of the index at 100k items, out of the index part
// into a paged part between the two, read
// by range in pages of 4 KiB, each checked by its own checksum (pages.go). Format 2
// readers refuse format 3 files by their major version.
const (
	Magic        = "CDASNAP\x00"
	MajorVersion = 3
	MinorVersion = 2

	headerSize      = 80
	sectionEntry    = 40 // name [24]byte, offset u64, length u64
	sectionNameSize = 24
	flagPreview     = 1

	offMagic     = 0
	offMajor     = 8
	offMinor     = 10
	offFlags     = 12
	offItems     = 16
	offSections  = 20
	offTable     = 24
	offHash      = 32
	offChecksum  = 64
	checksumSize = 4
	offIndexLen  = 72 // u64: length of the index part, from the file's first byte

	// MaxItemDepth is the most levels of objects and arrays an item may nest, its own
	// object included; a writer refuses a deeper item. The engine's walks over an
	// item's JSON (source filtering) go this deep, and would otherwise leave out what
	// lies below. (Elasticsearch refuses documents of more than 20 levels of objects
	// by default: index.mapping.depth.limit.)
	MaxItemDepth = 64

	// BodyBlockTarget is the size a body block grows to before the next item starts a
	// new one (an item larger than this is a block of its own): small enough that a page
	// of items reads little besides itself, large enough that a block's range request
	// and checksum are amortised over a few items.
	BodyBlockTarget = 16 << 10
	// bodyAlign aligns the body part, so that its blocks can be mapped or read by pages.
	bodyAlign = 4096
)

// Section names. Every section is optional to the reader except the item sections;
// a reader ignores sections it does not know.
const (
	secMeta        = "meta"            // JSON: environment, preview, statuses
	secBodyOffsets = "bodies.offsets"  // u64[n+1]: item i is bytes [o[i], o[i+1]) of the items' JSON end to end
	secBodyBlocks  = "bodies.blocks"   // u64[B+1] stored block offsets in the body part, u32[B+1] first items (the last n), u32[B] CRC-32C of each stored block
	secBodyDict    = "bodies.dict"     // the deflate preset dictionary of the body blocks
	secDataEnds    = "bodies.dataends" // from format 3.2: per item, where its top-level Data object ends in its JSON (see dataEndsSection)
	secIDs         = "ids"             // ContentIDs, concatenated, in order
	secIDOffsets   = "ids.offsets"     // u32[n+1] into ids
	secFields      = "fields"          // field directory (see fieldDirectory)
	secTerms       = "terms"           // term dictionaries: front-coded blocks of 16 terms (termdict.go)
	secPostings    = "postings"        // per term: item count, blocks of 128 bit-packed items led by skip entries, then positions (postings.go)
	secNorms       = "norms"           // one length byte per item per text field
	secDocValues   = "docvalues"       // per field, its value column: distinct values, per-item ordinals (values.go)
	secPerms       = "perms"           // up to format 3.0: u32[n] precomputed sort orders per top-level field
	secPermsPacked = "perms.packed"    // from format 3.1: the sort orders bit-packed (see fieldHasPackedPerms)
	secPages       = "pages"           // from format 3: the paged part's place and its pages' CRC-32C (pages.go)
	secTermHeads   = "terms.heads"     // from format 3: each term dictionary's block index and first terms, at hand while its blocks are paged (termdict.go)
	// From format 2.1, secDocSets and secImpacts: the common terms' items as bitmaps
	// (docsets.go) and their score bounds per window of items (impacts.go).
)

// align8 rounds n up to a multiple of 8, the alignment of sections.
func align8[T int | int64](n T) T { return (n + 7) &^ 7 }

// Field flags, stored in the field directory.
const (
	fieldTopLevel    = 1 << iota // a top-level member of the item (not under Data)
	fieldHasText                 // analysed terms, positions and norms
	fieldHasKeyword              // exact values (<field>.keyword)
	fieldHasValues               // typed values, ranks
	fieldMultiValued             // some item holds several values (an array)
	fieldHasPerms                // precomputed sort orders, u32 per item (format 3.0 and before)
	// fieldHasPackedPerms: precomputed sort orders in section perms.packed (from format
	// 3.1): per field with the flag, in directory order, its ascending then its
	// descending order, each n item numbers at the fewest bits that hold n-1 and
	// packedSlack zero bytes (values.go), so each order's place follows from n. The
	// directory holds nothing more for them: a reader that does not know the flag reads
	// the directory as before, sees no sort orders, and sorts by the value column's
	// ranks instead, with the same answers.
	fieldHasPackedPerms
)

// ValueKind is the type of one stored value. The order of the constants is the order
// across types of API.md D12: numbers < strings < booleans (dates are only ever
// compared with dates).
type ValueKind uint8

// Value kinds.
const (
	KindNumber ValueKind = iota + 1
	KindDate
	KindString
	KindBool
)

// NoRank is the rank of an item that lacks the field: it sorts last in both directions.
const NoRank = ^uint32(0)

var (
	// ErrNotSnapshot means the bytes do not start with the snapshot magic.
	ErrNotSnapshot = errors.New("not a snapshot file")
	// ErrVersion means the file's major format version is not one this reader knows.
	ErrVersion = errors.New("unsupported snapshot format version")
	// ErrChecksum means the file's checksum does not match its contents.
	ErrChecksum = errors.New("snapshot checksum mismatch")
	// ErrCorrupt means the file's structure is inconsistent.
	ErrCorrupt = errors.New("corrupt snapshot")
)

// Lucene's SmallFloat.intToByte4 / byte4ToInt: field lengths are stored in one byte,
// exactly as Lucene's BM25Similarity stores norms, so scores round as Lucene's do
// (API.md D6).
const (
	maxInt4       = 231 // longToInt4(math.MaxInt32)
	numFreeValues = 255 - maxInt4
)

func longToInt4(i uint64) uint32 {
	numBits := 64 - bits.LeadingZeros64(i)
	if numBits < 4 {
		return uint32(i)
	}
	shift := numBits - 4
	encoded := uint32(i>>uint(shift)) & 0x07
	return encoded | uint32(shift+1)<<3
}

func int4ToLong(i uint32) uint64 {
	b := uint64(i & 0x07)
	shift := int(i>>3) - 1
	if shift == -1 {
		return b
	}
	return (b | 0x08) << uint(shift)
}

// EncodeLength is Lucene's SmallFloat.intToByte4: a lossy one-byte field length.
func EncodeLength(n int) byte {
	if n < 0 {
		n = 0
	}
	if n < numFreeValues {
		return byte(n)
	}
	return byte(numFreeValues + longToInt4(uint64(n-numFreeValues)))
}

// DecodeLength is Lucene's SmallFloat.byte4ToInt, the inverse of EncodeLength.
func DecodeLength(b byte) int {
	i := uint32(b)
	if i < numFreeValues {
		return int(i)
	}
	return int(numFreeValues + int4ToLong(i-numFreeValues))
}

// DocumentedMembers are the content item members of the specification, in the output
// order of API.md D2; other top-level members follow them in source order.
var DocumentedMembers = [...]string{
	"Status", "CreatedBy", "CreatedAt", "Data", "PublishedBy", "UpdatedAt", "Name",
	"PublishedAt", "UpdatedBy", "TemplateName", "TemplateID", "ContentID",
}

// dateMembers are the top-level members that hold instants (API.md D5): they are
// indexed as dates (sortable by instant), not as analysed text.
var dateMembers = [...]string{"CreatedAt", "UpdatedAt", "PublishedAt"}

// IsDateMember reports whether name is a top-level member that holds an instant
// (API.md D5): CreatedAt, UpdatedAt or PublishedAt.
func IsDateMember(name string) bool {
	for _, m := range dateMembers[:] {
		if m == name {
			return true
		}
	}
	return false
}

// IgnoreAbove is Elasticsearch's ignore_above of dynamically mapped keyword sub-fields:
// a string inside Data longer than this many characters gets no exact form (no
// <field>.keyword term, no sort value), as in Elasticsearch; analysed text is kept.
// Top-level members always keep their exact form, because REST and GraphQL sort by them
// (API.md D6).
const IgnoreAbove = 256

// PublishedStatus is the status that a published-only snapshot holds (API.md D3).
const PublishedStatus = "Published"

// ValidEnvironmentID reports whether id matches [A-Za-z0-9][A-Za-z0-9_.-]{0,127}
// (API.md D1).
func ValidEnvironmentID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '.' && c != '-') {
			return false
		}
	}
	return true
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksum is the CRC-32C of data with the checksum field taken as zero.
func checksum(data []byte) uint32 {
	var zero [checksumSize]byte
	c := crc32.Update(0, castagnoli, data[:offChecksum])
	c = crc32.Update(c, castagnoli, zero[:])
	return crc32.Update(c, castagnoli, data[offChecksum+checksumSize:])
}
