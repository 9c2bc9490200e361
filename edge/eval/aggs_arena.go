package eval

// bucketArena hands out the buckets an aggregation counts in, carved from chunks of at
// most maxChunk buckets rather than allocated one by one: a date_histogram or a terms
// over many values has thousands. An aggregation marks the arena when it starts and
// releases it to the mark once its answer is built, when its buckets are dead (the
// answer holds their keys and counts, not them), so that the aggregations after it,
// its siblings under the same parent bucket above all, count in the same memory. A
// terms aggregation under another, over an item of 100,000 values, counts 100,000
// buckets under each of the parent's buckets: made anew each time, they filled the
// TinyGo module's heap again and again, and its collector took three quarters of the
// request's time.
type bucketArena[T any] struct {
	chunks [][]T
	// at is the chunk the next bucket comes from and next its place there; chunks past
	// at are free, kept for reuse.
	at, next int
}

// arenaMark is a place in a bucketArena to release it to.
type arenaMark struct{ at, next int }

// take returns a zeroed bucket, which stays valid until a release to a mark taken
// before it.
func (a *bucketArena[T]) take() *T {
	for a.at < len(a.chunks) && a.next == len(a.chunks[a.at]) {
		a.at, a.next = a.at+1, 0
	}
	if a.at == len(a.chunks) {
		// Doubling from 16 buckets, so that a facet's few dozen cost a few allocations.
		a.chunks = append(a.chunks, make([]T, min(16<<min(len(a.chunks), 8), maxChunk)))
	}
	b := &a.chunks[a.at][a.next]
	a.next++
	var zero T
	*b = zero
	return b
}

// mark returns the arena's place, to release it to.
func (a *bucketArena[T]) mark() arenaMark { return arenaMark{a.at, a.next} }

// release hands back every bucket taken since m was marked.
func (a *bucketArena[T]) release(m arenaMark) { a.at, a.next = m.at, m.next }

// maxChunk bounds a chunk of buckets. Each bucket is pointed to from the middle of its
// chunk, and the TinyGo module's collector, marking such a pointer, walks back to the
// chunk's start block by block: with chunks of 1,024 buckets, a terms aggregation of
// 100,000 buckets (an item's array of 100,000 numbers) spent 80% of its 2 s marking.
const maxChunk = 64
