package edge

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge/dsl"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// search answers POST/GET /cda/es/v1/<env> (spec §4, decisions D7, D10, D11, D12): the
// body (or GET ?source=, or ?q=) is decoded by package dsl, evaluated by the engine,
// and answered as {"status":200,"data":[...],"totalItems":N[,"aggregations":{...}]}.
func (r *Router) search(dst []byte, env *environment, req *Request) ([]byte, error) {
	body, params, err := searchInput(req)
	if err != nil {
		return nil, err
	}
	schema := newSearchSchema(env)
	dreq, derr := dsl.Decode(body, dsl.Options{Schema: schema, Params: params})
	if derr != nil {
		return nil, fromDSL(derr)
	}
	res, err := env.engine.Search(dreq.Search())
	if err != nil {
		return nil, err
	}
	dst = append(dst, `{"status":200,"data":[`...)
	for i, doc := range res.Docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = dreq.Source.Append(dst, env.snap.Item(doc))
	}
	dst = append(dst, `],"totalItems":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	if len(dreq.Aggs) > 0 {
		// Aggregations cover every match of the query, not only the page (D10), and,
		// as in Elasticsearch, ignore post_filter. (res.Docs is not used past here:
		// the engine reuses it.)
		matched := res.Matched
		if dreq.PostFilter != nil {
			all, err := env.engine.Search(&query.Search{Query: dreq.Query})
			if err != nil {
				return nil, err
			}
			matched = all.Matched
		}
		docs := make([]int, 0, matched.Count())
		matched.ForEach(func(doc int) { docs = append(docs, doc) })
		dst = append(dst, `,"aggregations":`...)
		ac := &aggContext{env: env}
		if dst, err = ac.appendAggs(dst, dreq.Aggs, docs); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// validateQuery answers /cda/es/v1/<env>/_validate/query (decisions D10): with
// ?explain=true, the query printed in Lucene's Query.toString() notation with every
// field named; a query that does not compile answers valid:false with the error. A body
// that is not JSON is still a 400 invalid_json (D8).
func (r *Router) validateQuery(dst []byte, env *environment, req *Request) ([]byte, error) {
	body, params, err := searchInput(req)
	if err != nil {
		return nil, err
	}
	explain := false
	for _, p := range params {
		if p.Name == "explain" {
			explain = p.Value == "" || strings.EqualFold(p.Value, "true")
		}
	}
	q, derr := dsl.DecodeQuery(body, dsl.Options{Schema: newSearchSchema(env), Params: params})
	if derr != nil {
		e, ok := derr.(*dsl.Error)
		if !ok || e.Code == dsl.CodeInvalidJSON {
			return nil, fromDSL(derr)
		}
		dst = append(dst, `{"status":200,"valid":false`...)
		if explain {
			dst = append(dst, `,"error":`...)
			dst = jsonw.String(dst, e.Message)
		}
		return append(dst, '}'), nil
	}
	dst = append(dst, `{"status":200,"valid":true`...)
	if explain {
		dst = append(dst, `,"explanation":`...)
		dst = jsonw.String(dst, q.String())
	}
	return append(dst, '}'), nil
}

// searchInput returns the search body and the URL parameters (D11): a GET (or HEAD)
// takes its body from ?source= when given, as Elasticsearch does; a POST takes the
// request body, and ?source= only when the body is blank.
func searchInput(req *Request) (string, []dsl.Param, error) {
	raw, err := ParseParams(req.RawQuery)
	if err != nil {
		return "", nil, err
	}
	body := string(req.Body)
	params := make([]dsl.Param, 0, len(raw))
	sourceSeen := false
	for _, p := range raw {
		switch p.Name {
		case "source":
			if sourceSeen {
				return "", nil, Errorf(CodeInvalidArgument, "query parameter \"source\" is given more than once")
			}
			sourceSeen = true
			if strings.TrimSpace(body) != "" {
				return "", nil, Errorf(CodeInvalidArgument, "give the search either as the request body or as ?source=, not both")
			}
			body = p.Value
		case "source_content_type":
			if !strings.HasPrefix(p.Value, "application/json") {
				return "", nil, Errorf(CodeInvalidArgument, "source_content_type must be application/json, not %q", clip(p.Value))
			}
		default:
			params = append(params, dsl.Param{Name: p.Name, Value: p.Value})
		}
	}
	return body, params, nil
}

// fromDSL converts a decoding error to the router's error vocabulary (D8).
func fromDSL(err error) error {
	if e, ok := err.(*dsl.Error); ok {
		return &Error{Code: Code(e.Code), Message: e.Message}
	}
	return err
}

// searchSchema is the dsl.Schema of one environment, with per-request caches.
type searchSchema struct {
	env   *environment
	types map[string]dsl.FieldType
	names []string
	vals  []snapshot.Value
}

func newSearchSchema(env *environment) *searchSchema {
	return &searchSchema{env: env, types: map[string]dsl.FieldType{}}
}

// FieldType reports the kinds of value a field holds, without scanning the items in
// the common cases: strings are known from the dictionaries, numbers and booleans from
// the first value or the precomputed sort orders. A Data field that mixes strings with
// numbers is taken as text.
func (s *searchSchema) FieldType(name string) dsl.FieldType {
	if t, ok := s.types[name]; ok {
		return t
	}
	var t dsl.FieldType
	f := s.env.snap.Field(name)
	if f != nil {
		if snapshot.IsDateMember(name) {
			t |= dsl.TypeDate
		} else if f.Text().Len() > 0 || f.Keyword().Len() > 0 {
			t |= dsl.TypeText
		}
		switch {
		case !f.HasValues() || snapshot.IsDateMember(name):
		case f.Keyword().Len() == 0:
			// No strings: the first value found tells numbers from booleans.
			n := s.env.snap.Len()
			for doc := 0; doc < n && t&(dsl.TypeNumber|dsl.TypeBool) == 0; doc++ {
				t |= s.kinds(f, doc)
			}
		case f.HasSortOrders():
			// Strings too: the precomputed orders put numbers first and booleans last
			// (D12), so the first item of each order tells whether there are any.
			t |= s.kinds(f, f.SortedDoc(0, false)) | s.kinds(f, f.SortedDoc(0, true))
		}
	}
	s.types[name] = t
	return t
}

// kinds returns the number and boolean kinds among doc's values of f.
func (s *searchSchema) kinds(f *snapshot.Field, doc int) dsl.FieldType {
	var t dsl.FieldType
	if doc < 0 {
		return 0
	}
	s.vals = f.Values(s.vals[:0], doc)
	for _, v := range s.vals {
		switch v.Kind {
		case snapshot.KindNumber:
			t |= dsl.TypeNumber
		case snapshot.KindBool:
			t |= dsl.TypeBool
		}
	}
	return t
}

// SortField resolves a sort key (D6, D12): a top-level member, case-insensitively, or
// a Data path; a field that no item has is unknown.
func (s *searchSchema) SortField(name string) (string, bool) {
	var field string
	if len(name) > 5 && strings.EqualFold(name[:5], "Data.") {
		field = "Data." + name[5:]
	} else {
		canonical, ok := s.env.engine.TopLevel(name)
		if !ok || canonical == "Data" {
			return "", false
		}
		field = canonical
	}
	f := s.env.snap.Field(field)
	if f == nil || !f.HasValues() {
		return "", false
	}
	return field, true
}

// FieldNames lists the environment's indexed fields.
func (s *searchSchema) FieldNames() []string {
	if s.names == nil {
		s.names = s.env.snap.FieldNames()
	}
	return s.names
}
