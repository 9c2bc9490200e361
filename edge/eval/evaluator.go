package eval

import (
	"math/bits"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Evaluator evaluates searches against one snapshot. It keeps scratch buffers between
// calls, so it is not safe for concurrent use; the snapshot it reads may be shared.
type Evaluator struct {
	snap *snapshot.Snapshot
	n    int

	// Per-request state and reusable buffers.
	vals     []snapshot.Value
	docs     []int
	scores   []float64
	free     [][]float32 // score arrays ready for reuse (all zero)
	used     [][]float32 // score arrays handed out during this request
	sets     []docSet    // released doc sets ready for reuse (all zero), at most maxFreeSets
	steps    int64
	maxSteps int64
	// maxAnswer bounds the answer a request builds (CheckAnswer); 0 means unlimited.
	maxAnswer int
	// answerStart is where answers start in the buffers whose sizes CheckAnswer is
	// given (SetAnswerStart).
	answerStart int

	// termIter is the term iterator the scans of dictionaries reuse (termsFrom).
	termIter snapshot.TermIter
	// orderRun holds a run of a field's precomputed order (Field.SortedDocs) while a
	// walk reads it.
	orderRun [256]int32
	// aggDocs holds the items an aggregation counts, and aggEntries and aggOwners
	// their values' entries (aggContext.entryValues), kept for the next request's.
	aggDocs    []int
	aggEntries []uint32
	aggOwners  []int32
	// aggSlots and aggSeen are scratch for the buckets of a field's distinct values
	// (aggContext.entrySlots).
	aggSlots []int32
	aggSeen  []*tally

	keywordStats map[string]fieldStats
	kinds        map[string]snapshot.ValueKind // fieldKind, per field of the snapshot
	norms        map[fieldStats]*[256]float32  // normTable, per field statistics
	// within, while set, restricts the evaluation to its items: nodes may then leave out
	// (and not score) any other item, because the bool that set it intersects with it.
	within docSet
	// literalFields, while set, reads the field names of queries as they are, not as
	// patterns (runFieldPattern).
	literalFields bool
	// unfused turns off the fused ways of fused.go, for the test that compares them
	// with the node-by-node way.
	unfused bool
	// noTopK turns off the top-k path (topk.go), for the tests that compare it with
	// the node-by-node way.
	noTopK bool
	// perItemValues turns off aggregations' reading of fields by entry of their
	// tables of distinct values (aggContext.entryValues), for the test that compares
	// it with reading each item's values.
	perItemValues bool
	// tk is the top-k path's state (nil until a search takes it).
	tk *tkScratch
	// ftFields are the fields of the last list of fields a FieldTerms named
	// (fieldTermsFields), and whether a name of it is a pattern; terms are the words
	// looked up in them (fieldTermsLookups).
	ftFields struct {
		names   []string
		fields  []resolvedTerm
		pattern bool
		terms   map[string][]int32
	}
	// ftWords and ftTerms are scratch for planFieldTerms: whether each text is a word
	// (isWord), and its term in each field.
	ftWords []bool
	ftTerms [][]int32
	// replay, while a search the top-k path left to the node-by-node way runs, are the
	// terms it looked up, in order, and replayAt the next one (keepLookups).
	replay   []tkLookup
	replayAt int
}

// DefaultMaxSteps bounds one request's evaluation work (API.md D11: one second of
// work). A step is one posting, value or term visited. Calibrated on a scan-heavy query (a
// query_string union of wildcard expansions over a 9010-item generated environment,
// host/wasmpool's TestStepBudgetCalibration): the wasm module in wazero, the slower
// runtime, does 5.1-5.6 M steps/s and the native engine 34-74 M steps/s, so the budget
// stops such a request after about 1 s in wasm and 0.07-0.15 s natively.
const DefaultMaxSteps = 5_000_000

// NewEvaluator returns an evaluator over snap.
func NewEvaluator(snap *snapshot.Snapshot) *Evaluator {
	return &Evaluator{snap: snap, n: snap.Len(), maxSteps: DefaultMaxSteps}
}

// SetMaxSteps changes the work budget of one request; zero or less means unlimited.
func (e *Evaluator) SetMaxSteps(n int64) { e.maxSteps = n }

// BeginRequest starts a new request's work budget. Everything the request runs after it
// (every search, aggregation, GraphQL descendant lookup and projection) spends the same
// budget, so no shape of request can do more than one budget's work (API.md D11).
func (e *Evaluator) BeginRequest() { e.steps = 0 }

// Steps is the work the current request has spent so far (since BeginRequest), in steps.
// It depends only on the request and the snapshot, so every runtime counts the same.
func (e *Evaluator) Steps() int64 { return e.steps }

// SetMaxAnswerBytes sets the largest answer body a request may build (CheckAnswer); zero
// or less means unlimited.
func (e *Evaluator) SetMaxAnswerBytes(n int) { e.maxAnswer = max(n, 0) }

// SetAnswerStart says that the front-ends build answers after n bytes of their buffer
// that are not part of the answer (room the router keeps before a body, Options of
// package router), so that CheckAnswer, given a buffer's length, measures the answer
// alone.
func (e *Evaluator) SetAnswerStart(n int) { e.answerStart = max(n, 0) }

// CheckAnswer reports a too_complex *edge.Error when an answer whose buffer is size
// bytes long (SetAnswerStart) is over the limit, and charges the building of a piece of
// copied bytes to the budget (one step per 64 bytes, answerStepBytes). Front-ends call
// it as they append items, so that an answer stops growing as soon as it is too large
// rather than after it is built.
func (e *Evaluator) CheckAnswer(size, copied int) error {
	if e.maxAnswer > 0 && size-e.answerStart > e.maxAnswer {
		return edge.Errorf(edge.CodeTooComplex, "the answer would be larger than %d bytes (the response size limit); ask for fewer items, a smaller page or fewer fields", e.maxAnswer)
	}
	if copied <= 0 {
		return nil
	}
	return e.spend(copied/answerStepBytes + 1)
}

// answerStepBytes is how many answer bytes cost one step. Calibrated with the steps
// (host/wasmpool's TestStepBudgetCalibration, 10,000 generated items): in the wasm module
// a KiB of answer takes as long as 12 steps (a REST page of 1,000 items) to 29 steps (a
// GraphQL alias bomb stopped at the 32 MiB answer limit); 16 steps per KiB makes a
// largest answer cost about a tenth of the budget, as it costs about a tenth of its time.
const answerStepBytes = 64

// Spend charges n steps of work to the current request's budget; past the budget it
// returns a too_complex *edge.Error. Front-ends call it for work they do outside the
// evaluator's own loops (projecting items, rendering).
func (e *Evaluator) Spend(n int) error { return e.spend(n) }

// Snapshot is the snapshot the evaluator reads.
func (e *Evaluator) Snapshot() *snapshot.Snapshot { return e.snap }

// Result is one page of a search: the items in order, their scores, and every match.
type Result struct {
	// Total is the number of matching items across all pages (API.md D7).
	Total int
	// Docs are the page's item numbers in order.
	Docs []int
	// Scores are the relevance scores of Docs when the search scored (nil otherwise).
	Scores []float64
	// Matched is every matching item, for aggregations over all matches (D10).
	Matched DocSet
}

// DocSet is a set of item numbers.
type DocSet struct{ set docSet }

// Count is the number of items in the set.
func (d DocSet) Count() int { return d.set.count() }

// Has reports whether item doc is in the set.
func (d DocSet) Has(doc int) bool { return doc >= 0 && doc>>6 < len(d.set) && d.set.has(doc) }

// ForEach calls fn for each item in increasing order.
func (d DocSet) ForEach(fn func(doc int)) { d.set.forEach(fn) }

// docSet is a bitset of item numbers. Inside the evaluator a nil docSet is the empty
// set (a term no item has costs no allocation); the operations below accept it as their
// argument, and as their receiver where they do not need to grow it.
type docSet []uint64

func newDocSet(n int) docSet { return make(docSet, (n+63)/64) }

// maxFreeSets bounds the doc sets an engine keeps for reuse between requests.
const maxFreeSets = 32

// newSet returns an empty set over the collection, reusing a released one when it can:
// a query over many fields makes and drops dozens of sets, and allocating each (sized to
// the collection) was a large part of a query's time.
func (e *Evaluator) newSet() docSet {
	if k := len(e.sets); k > 0 {
		s := e.sets[k-1]
		e.sets = e.sets[:k-1]
		return s
	}
	return newDocSet(e.n)
}

// releaseSet hands back a set nothing reads any more. Only sets made during the
// current evaluation and consumed by it are released: never a result's Matched set.
func (e *Evaluator) releaseSet(s docSet) {
	if len(s) == 0 || len(e.sets) >= maxFreeSets {
		return
	}
	clear(s)
	e.sets = append(e.sets, s)
}

func (d docSet) fill(n int) docSet {
	for i := range d {
		d[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		d[len(d)-1] = (1 << uint(r)) - 1
	}
	return d
}

func (d docSet) forEach(fn func(doc int)) {
	for i, w := range d {
		for w != 0 {
			fn(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

func (d docSet) add(doc int)      { d[doc>>6] |= 1 << uint(doc&63) }
func (d docSet) has(doc int) bool { return d[doc>>6]&(1<<uint(doc&63)) != 0 }

func (d docSet) and(o docSet) {
	if len(o) == 0 {
		clear(d)
		return
	}
	o = o[:len(d)]
	for i := range d {
		d[i] &= o[i]
	}
}

// or adds o's members; d must not be nil unless o is empty.
func (d docSet) or(o docSet) {
	if len(o) == 0 {
		return
	}
	o = o[:len(d)]
	for i := range d {
		d[i] |= o[i]
	}
}

func (d docSet) andNot(o docSet) {
	if len(o) == 0 {
		return
	}
	o = o[:len(d)]
	for i := range d {
		d[i] &^= o[i]
	}
}

func (d docSet) count() int {
	c := 0
	for _, w := range d {
		c += bits.OnesCount64(w)
	}
	return c
}

// appendRange appends the members ranked from..end-1 in increasing order.
func (d docSet) appendRange(dst []int, from, end int) []int {
	k := 0
	for i, w := range d {
		for w != 0 {
			if k >= end {
				return dst
			}
			t := bits.TrailingZeros64(w)
			if k >= from {
				dst = append(dst, i*64+t)
			}
			k++
			w &= w - 1
		}
	}
	return dst
}
