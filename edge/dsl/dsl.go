// Package dsl decodes the search endpoint's Elasticsearch request body (API.md "Search: query content",
// API.md D7, D10, D11, D12) into the engine's one query model (package query), the
// paging and sort of a query.Search, a _source filter and aggregation requests.
//
// It is a pure function of the body, the URL parameters and a read-only Schema: no
// evaluation happens here, so Decode is easy to table-test and to fuzz. Every clause is
// an object with one key, the clause type, dispatched by name; every error is an
// *edge.Error carrying a D8 code and a message naming the JSON path of the culprit.
//
// The package is compiled to WebAssembly with TinyGo: it reads JSON with jsonr, never
// encoding/json, reflection, goroutines or recover, and it must never panic.
package dsl

import (
	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// errorf returns the decoding error code with msg, prefixed by the JSON path it refers
// to (when there is one), as Elasticsearch names the culprit.
func errorf(code edge.Code, path, msg string) *edge.Error {
	if path != "" {
		msg = "[" + path + "] " + msg
	}
	return &edge.Error{Code: code, Message: msg, Offset: -1}
}

// Param is one decoded URL query parameter.
type Param struct {
	Name  string
	Value string
}

// Limits bounds a request (API.md D7, D11). Zero fields take the defaults.
type Limits struct {
	// MaxClauses bounds the leaf and boolean clauses of the whole query (Lucene's
	// max clause count, default 1024).
	MaxClauses int
	// MaxDepth bounds the nesting of the JSON body and of clauses (default 64).
	MaxDepth int
	// MaxResultWindow bounds from + size (default 10000, Elasticsearch's
	// index.max_result_window).
	MaxResultWindow int
	// MaxExpansions bounds max_expansions of fuzzy and phrase-prefix clauses
	// (default 10000, the multi-term expansion limit of D11).
	MaxExpansions int
	// MaxTerms bounds the values of one terms clause (default 65536, Elasticsearch's
	// index.max_terms_count).
	MaxTerms int
	// MaxAggs bounds the number of aggregations of a request, sub-aggregations
	// included (default 100).
	MaxAggs int
	// MaxSortKeys bounds the keys of a sort (default 32).
	MaxSortKeys int
}

// Default limits (API.md D7, D11).
const (
	DefaultMaxClauses      = 1024
	DefaultMaxDepth        = 64
	DefaultMaxResultWindow = 10000
	DefaultMaxExpansions   = 10000
	DefaultMaxTerms        = 65536
	DefaultMaxAggs         = 100
	DefaultMaxSortKeys     = 32
	// DefaultSize is the page size of a search without size (API.md D11).
	DefaultSize = 10
)

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxClauses, DefaultMaxClauses)
	def(&l.MaxDepth, DefaultMaxDepth)
	def(&l.MaxResultWindow, DefaultMaxResultWindow)
	def(&l.MaxExpansions, DefaultMaxExpansions)
	def(&l.MaxTerms, DefaultMaxTerms)
	def(&l.MaxAggs, DefaultMaxAggs)
	def(&l.MaxSortKeys, DefaultMaxSortKeys)
	return l
}

// Options are the inputs of Decode besides the body.
type Options struct {
	// Schema describes the environment's fields; nil means "every field is text".
	Schema content.Schema
	// Params are the decoded URL query parameters: the Nimvio members of D7 (Page,
	// PageSize, Sort, SortAsc and the field filters), and Elasticsearch's URI search
	// parameters (q, df, default_operator, analyzer, from, size, sort, _source, ...).
	// Unknown parameters are ignored (clients add cache-busters).
	Params []Param
	// Limits bounds the request; zero fields take the defaults.
	Limits Limits
	// Highlight accepts the highlight member (the Elasticsearch-compatible routes,
	// whose hits can carry it); without it highlight is refused as the envelope has
	// no place for it.
	Highlight bool
}

// Request is a decoded search request.
type Request struct {
	// Query selects the items (never nil). Nimvio field filters are already folded in.
	Query query.Query
	// PostFilter, when not nil, restricts the hits but not the aggregations
	// (Elasticsearch's post_filter).
	PostFilter query.Query
	// From and Size select the page (API.md D7).
	From, Size int
	// Sort is the order; empty means by relevance when the query scores, else the
	// default order of D6.
	Sort []query.SortField
	// TrackScores asks for scores even when sorting by fields.
	TrackScores bool
	// Source filters each returned item; nil returns items whole.
	Source *SourceFilter
	// Aggs are the requested aggregations, in request order.
	Aggs []*query.Agg
	// Highlight, when not nil, asks for highlighted fragments of each hit.
	Highlight *query.Highlight
}

// Search returns the query.Search of the request's hits (the post_filter applied).
func (r *Request) Search() *query.Search {
	q := r.Query
	if r.PostFilter != nil {
		q = query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: q}, {Occur: query.Filter, Query: r.PostFilter}}}
	}
	return &query.Search{Query: q, Sort: r.Sort, From: r.From, Size: r.Size, Scores: r.TrackScores}
}

// Decode decodes a search body (blank means {"query":{"match_all":{}}}, D10) and the
// URL parameters of opts into a Request. Every failure is an *edge.Error.
func Decode(body string, opts Options) (*Request, error) {
	d := newDecoder(opts)
	req, err := d.request(body)
	if err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeQuery decodes the body of _validate/query (D10): an object whose only
// member is "query" (blank means match_all). It returns the compiled query.
func DecodeQuery(body string, opts Options) (query.Query, error) {
	d := newDecoder(opts)
	v, err := d.parseBody(body)
	if err != nil {
		return nil, err
	}
	if !v.Exists() {
		return query.MatchAll{}, nil
	}
	var q query.Query = query.MatchAll{}
	err = d.members(v, "", func(key string, val jsonr.Result) error {
		if key != "query" {
			return errorf(edge.CodeInvalidQuery, "", "request does not support ["+key+"]; _validate/query takes only \"query\"")
		}
		var err error
		q, err = d.query(val, "query", 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	return q, nil
}

// DecodeCount decodes the body of _count: an object whose only member is "query"
// (blank means match_all), with ?q= and the URL's field filters folded in as Decode
// does. It returns the compiled query.
func DecodeCount(body string, opts Options) (query.Query, error) {
	d := newDecoder(opts)
	v, err := d.parseBody(body)
	if err != nil {
		return nil, err
	}
	if v.Exists() {
		err = d.members(v, "", func(key string, _ jsonr.Result) error {
			if key != "query" {
				return errorf(edge.CodeInvalidQuery, "", "request does not support ["+edge.Clip(key)+"]; _count takes only \"query\"")
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	req, err := Decode(body, opts)
	if err != nil {
		return nil, err
	}
	return req.Query, nil
}
