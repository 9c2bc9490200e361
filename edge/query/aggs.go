package query

// Aggregations (API.md D10) in the query model: an Agg says what to compute over the
// matched items, an AggResult (aggresult.go) holds what the evaluator computed. Front-ends
// decode their syntax into Aggs and render AggResults; the evaluator sees neither.

// AggKind is the kind of an aggregation.
type AggKind uint8

// Aggregation kinds: bucket aggregations (terms to date_histogram), metrics (min to
// cardinality), and single-bucket aggregations (missing, filter).
const (
	AggTerms AggKind = iota + 1
	AggRange
	AggDateRange
	AggHistogram
	AggDateHistogram
	AggMin
	AggMax
	AggAvg
	AggSum
	AggStats
	AggValueCount
	AggCardinality
	AggMissing
	AggFilter
)

// String returns the kind's name ("terms", "date_histogram", ...), which is also its
// name in the search DSL; error messages name kinds by it. "?" for an unknown kind.
func (k AggKind) String() string {
	switch k {
	case AggTerms:
		return "terms"
	case AggRange:
		return "range"
	case AggDateRange:
		return "date_range"
	case AggHistogram:
		return "histogram"
	case AggDateHistogram:
		return "date_histogram"
	case AggMin:
		return "min"
	case AggMax:
		return "max"
	case AggAvg:
		return "avg"
	case AggSum:
		return "sum"
	case AggStats:
		return "stats"
	case AggValueCount:
		return "value_count"
	case AggCardinality:
		return "cardinality"
	case AggMissing:
		return "missing"
	case AggFilter:
		return "filter"
	}
	return "?"
}

// IsMetric reports whether the kind is a single- or multi-value metric (no buckets, no
// sub-aggregations).
func (k AggKind) IsMetric() bool { return k >= AggMin && k <= AggCardinality }

// IsSingleValueMetric reports whether the kind is a metric with one value, the only
// kind a bucket order may name.
func (k AggKind) IsSingleValueMetric() bool { return k.IsMetric() && k != AggStats }

// OrderBy is what one key of a bucket order compares.
type OrderBy uint8

// Bucket order keys.
const (
	ByCount  OrderBy = iota // the buckets' item counts
	ByKey                   // the buckets' keys (D12's order of values)
	ByMetric                // a single-value metric sub-aggregation's value in each bucket
)

// BucketOrder is one key of a bucket aggregation's order; later keys break ties.
type BucketOrder struct {
	By OrderBy
	// Metric names the sub-aggregation (one of Agg.Subs) when By is ByMetric.
	Metric string
	Desc   bool
}

// BucketRange is one bucket of a range or date_range aggregation: the values v with
// From <= v < To (-Inf and +Inf when unbounded; dates in epoch milliseconds). Key names
// the bucket; empty unless the request gave one.
type BucketRange struct {
	Key      string
	From, To float64
}

// CalendarUnit is a date_histogram's calendar interval; CalendarNone means the
// histogram has a fixed Interval.
type CalendarUnit uint8

// Calendar intervals: buckets start on the unit's boundary in the time zone (weeks on
// Mondays, quarters in January, April, July and October).
const (
	CalendarNone CalendarUnit = iota
	CalendarMinute
	CalendarHour
	CalendarDay
	CalendarWeek
	CalendarMonth
	CalendarQuarter
	CalendarYear
)

// Agg is one requested aggregation. Which fields apply depends on Kind; a front-end fills
// in its syntax's defaults (terms: Size 10, MinDocCount 1, Order by count then key).
type Agg struct {
	// Name names the aggregation in the answer and in a parent's BucketOrder.
	Name string
	Kind AggKind
	// Field is the field as written: a member, a Data path, or "<field>.keyword" for its
	// string values only. Every kind but filter has one.
	Field string
	// Meta is raw JSON echoed in the answer ("" when absent); the evaluator ignores it.
	Meta string

	// Size (terms) is how many buckets to keep; the others count in OtherDocCount.
	Size int
	// MinDocCount (terms, histograms) drops buckets with fewer items. 0 lists every term
	// of the field, or fills the gaps between histogram buckets.
	MinDocCount int
	// Order (terms, histograms) sorts the buckets; empty keeps histograms by key.
	Order []BucketOrder
	// Include and Exclude (terms) keep only the buckets whose key equals one of Include
	// (when not empty) and drop those whose key equals one of Exclude. A Scalar equals a
	// key of its own kind only, so a front-end gives each written value in every kind it
	// can stand for.
	Include, Exclude []Scalar

	// Ranges (range, date_range) are the buckets, in answer order.
	Ranges []BucketRange
	// Keyed (ranges, histograms) answers buckets as an object by key instead of an array;
	// the evaluator ignores it.
	Keyed bool

	// Calendar (date_histogram) is the calendar interval, or CalendarNone for a fixed
	// Interval (histograms; milliseconds for dates). Offset shifts the bucket boundaries,
	// in the same unit. TimeZone (date_histogram) is the zone's offset from UTC in
	// milliseconds: buckets start at local boundaries and print in local time.
	Calendar CalendarUnit
	Interval float64
	Offset   float64
	TimeZone int64
	// Format is the date format of printed dates (front-end syntax; the evaluator
	// ignores it).
	Format string
	// ExtendedMin and ExtendedMax (histograms, when HasExtended) widen the range that
	// MinDocCount 0 fills.
	ExtendedMin float64
	ExtendedMax float64
	HasExtended bool

	// Filter is the filter aggregation's query.
	Filter Query
	// Subs are the sub-aggregations, computed in every bucket, in request order.
	Subs []*Agg
}
