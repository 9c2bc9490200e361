package query

// AggResult is what the evaluator computed for one Agg (API.md D10). A front-end renders
// it together with the Agg it answers. Which fields are set depends on the Agg's Kind:
//
//   - terms, range, date_range, histogram, date_histogram: Buckets, and OtherDocCount
//     for terms;
//   - missing, filter: DocCount and Subs;
//   - min, max, avg, sum, stats, value_count, cardinality: Metric.
type AggResult struct {
	// Buckets are the buckets in answer order: sorted by the Agg's Order, cut to its
	// Size, without those under its MinDocCount. The i-th bucket of a range aggregation
	// is Agg.Ranges[i].
	Buckets []AggBucket
	// OtherDocCount (terms) counts the items of the buckets that Size cut off, once per
	// bucket.
	OtherDocCount int
	// DocCount (missing, filter) is the number of items in the single bucket.
	DocCount int
	// Subs (missing, filter) are the results of Agg.Subs over the single bucket's items.
	Subs []AggResult
	// Metric is a metric aggregation's value.
	Metric AggMetric
	// Dates reports that the values are dates, in epoch milliseconds: for range, that the
	// field is a date member; for the metrics, that a value was a date.
	Dates bool
}

// AggBucket is one bucket: its key, its item count, its sub-aggregations' results.
type AggBucket struct {
	// Key is the bucket's key: for terms, the value (ScalarString, ScalarNumber,
	// ScalarDate or ScalarBool); for histogram, the lower bound (ScalarNumber); for
	// date_histogram, its start (ScalarDate, epoch milliseconds UTC). Range buckets have
	// no key (see Agg.Ranges). Key.Text is not set.
	Key      Scalar
	DocCount int
	// Subs are the results of Agg.Subs over the bucket's items, in order.
	Subs []AggResult
}

// AggMetric is a metric aggregation's value.
type AggMetric struct {
	// Count is the value of value_count (values, repeats included) and of cardinality
	// (distinct values); for the other metrics, the number of values aggregated, where
	// 0 means that min, max and avg have no value (and Min is +Inf, Max -Inf).
	Count int
	// Min, Max, Avg and Sum are the numeric values' (dates as epoch milliseconds,
	// booleans as 0 and 1) minimum, maximum, mean (Sum/max(Count,1)) and sum.
	Min, Max, Avg, Sum float64
}
