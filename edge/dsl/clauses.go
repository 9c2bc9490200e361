package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// query compiles one clause object ({"<type>": {...}}) at path (decisions D10).
func (d *decoder) query(v jsonr.Result, path string, depth int) (query.Query, error) {
	if depth > d.lim.MaxDepth {
		return nil, errorf(edge.CodeTooComplex, path, "clauses nest deeper than "+strconv.Itoa(d.lim.MaxDepth)+" levels (limit: nesting depth)")
	}
	if !v.IsObject() {
		return nil, errorf(edge.CodeInvalidArgument, path, "a query clause must be an object such as {\"match_all\":{}}, not "+typeName(v))
	}
	var kind string
	var body jsonr.Result
	n := 0
	var err error
	v.ForEach(func(k, val jsonr.Result) bool {
		n++
		if n == 2 {
			err = errorf(edge.CodeInvalidQuery, path, "a query clause has exactly one key, its type; found ["+clip(kind)+"] and ["+clip(k.Str)+"]")
			return false
		}
		kind, body = k.Str, val
		return true
	})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errorf(edge.CodeInvalidQuery, path, "query malformed, empty clause found")
	}
	p := join(path, kind)
	switch kind {
	case "match_all":
		return d.matchAll(body, p)
	case "match_none":
		return d.matchNone(body, p)
	case "match":
		return d.match(body, p, matchBool)
	case "match_phrase":
		return d.match(body, p, matchPhrase)
	case "match_phrase_prefix":
		return d.match(body, p, matchPhrasePrefix)
	case "match_bool_prefix":
		return d.match(body, p, matchBoolPrefix)
	case "multi_match":
		return d.multiMatch(body, p)
	case "term":
		return d.term(body, p)
	case "terms":
		return d.terms(body, p)
	case "range":
		return d.rangeClause(body, p)
	case "prefix", "wildcard", "regexp":
		return d.pattern(kind, body, p)
	case "fuzzy":
		return d.fuzzy(body, p)
	case "exists":
		return d.exists(body, p)
	case "ids":
		return d.ids(body, p)
	case "bool":
		return d.boolClause(body, p, depth)
	case "constant_score":
		return d.constantScore(body, p, depth)
	case "dis_max":
		return d.disMax(body, p, depth)
	case "query_string":
		return d.queryString(body, p, false)
	case "simple_query_string":
		return d.queryString(body, p, true)
	}
	return nil, errorf(edge.CodeInvalidQuery, path, "unknown query clause type ["+clip(kind)+"]; supported: match_all, match_none, match, match_phrase, match_phrase_prefix, match_bool_prefix, multi_match, query_string, simple_query_string, term, terms, range, prefix, wildcard, regexp, fuzzy, exists, ids, bool, constant_score, dis_max")
}

// operator reads a boolean operator, "or" or "and" in any case (match's operator,
// query_string's default_operator), and reports whether it is "and".
func operator(val jsonr.Result, p string) (bool, error) {
	s, err := strictStr(val, p)
	if err != nil {
		return false, err
	}
	switch {
	case strings.EqualFold(s, "or"):
		return false, nil
	case strings.EqualFold(s, "and"):
		return true, nil
	}
	return false, errorf(edge.CodeInvalidArgument, p, "must be OR or AND, not \""+clip(s)+"\"")
}

func unsupported(path, clause, key string) error {
	return errorf(edge.CodeInvalidQuery, path, "["+clause+"] query does not support ["+clip(key)+"]")
}

// boosted wraps q in a Boost unless b is 1.
func boosted(q query.Query, b float64) query.Query {
	if b == 1 {
		return q
	}
	return query.Boost{Query: q, Boost: b}
}

// isCommon handles the members every clause takes: boost and _name (ignored, there
// are no per-hit matched_queries in the envelope).
func isCommon(key string, val jsonr.Result, path string, b *float64) (bool, error) {
	switch key {
	case "boost":
		f, err := boost(val, join(path, key))
		*b = f
		return true, err
	case "_name":
		_, err := strictStr(val, join(path, key))
		return true, err
	}
	return false, nil
}

func (d *decoder) matchAll(body jsonr.Result, path string) (query.Query, error) {
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		return unsupported(path, "match_all", key)
	})
	if err != nil {
		return nil, err
	}
	return boosted(query.MatchAll{}, b), d.count(1, path)
}

func (d *decoder) matchNone(body jsonr.Result, path string) (query.Query, error) {
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		return unsupported(path, "match_none", key)
	})
	if err != nil {
		return nil, err
	}
	return query.MatchNone{}, d.count(1, path)
}

// fieldKind is how a clause treats a field, from its name and the Schema.
type fieldKind uint8

const (
	kindText fieldKind = iota
	kindKeyword
	kindNumber
	kindDate
	kindBool
)

func (d *decoder) kindOf(field string) fieldKind {
	if strings.HasSuffix(field, ".keyword") {
		return kindKeyword
	}
	if snapshot.IsDateMember(field) {
		return kindDate
	}
	if d.schema == nil {
		return kindText
	}
	t := d.schema.FieldType(field)
	switch {
	case t&content.TypeText != 0:
		return kindText
	case t&content.TypeDate != 0:
		return kindDate
	case t&content.TypeNumber != 0:
		return kindNumber
	case t&content.TypeBool != 0:
		return kindBool
	}
	return kindText
}

// scalarText is a term value's text: strings as they are, numbers and booleans as
// written.
func scalarText(v jsonr.Result, path string) (string, error) {
	switch v.Type {
	case jsonr.String:
		return v.Str, nil
	case jsonr.Number, jsonr.True, jsonr.False:
		return v.Raw, nil
	}
	return "", errorf(edge.CodeInvalidArgument, path, "must be a string, a number or a boolean, not "+typeName(v))
}

// exactQuery compiles an exact-value comparison of field with v as Elasticsearch's
// dynamic mapping does: a term on text and keyword fields (not analysed), an equality
// on numbers and booleans, and the whole unit on dates (D5, D12).
func (d *decoder) exactQuery(field string, v jsonr.Result, path string) (query.Query, error) {
	switch d.kindOf(field) {
	case kindDate:
		return dateEquality(field, v, path)
	case kindNumber:
		f, err := number(v, path)
		if err != nil {
			return nil, err
		}
		text := strings.TrimSpace(v.Str)
		if v.Type == jsonr.Number {
			text = v.Raw
		}
		s := query.Scalar{Kind: query.ScalarNumber, Number: f, Text: text}
		return query.Range{Field: field, Lower: &query.Bound{Value: s, Inclusive: true}, Upper: &query.Bound{Value: s, Inclusive: true}}, nil
	case kindBool:
		b, err := boolean(v, path)
		if err != nil {
			return nil, err
		}
		s := query.Scalar{Kind: query.ScalarBool, Bool: b, Text: strconv.FormatBool(b)}
		return query.Range{Field: field, Lower: &query.Bound{Value: s, Inclusive: true}, Upper: &query.Bound{Value: s, Inclusive: true}}, nil
	}
	text, err := scalarText(v, path)
	if err != nil {
		return nil, err
	}
	return query.Term{Field: field, Text: text}, nil
}

// dateEquality matches every instant inside the unit the value was written to (D5):
// an inclusive range in milliseconds, printed as Elasticsearch prints date ranges.
func dateEquality(field string, v jsonr.Result, path string) (query.Query, error) {
	var lo, hi int64
	switch v.Type {
	case jsonr.Number:
		f, err := number(v, path)
		if err != nil {
			return nil, err
		}
		lo, hi = int64(f), int64(f)
	case jsonr.String:
		inst, err := datetime.Parse(v.Str)
		if err != nil {
			return nil, errorf(edge.CodeInvalidArgument, path, err.Error())
		}
		lo, hi = inst.Millis, inst.End()-1
	default:
		return nil, errorf(edge.CodeInvalidArgument, path, "must be a date-time string such as \"2021-04-23\", not "+typeName(v))
	}
	return query.Range{Field: field,
		Lower: &query.Bound{Value: dateScalar(lo), Inclusive: true},
		Upper: &query.Bound{Value: dateScalar(hi), Inclusive: true}}, nil
}

func dateScalar(ms int64) query.Scalar {
	return query.Scalar{Kind: query.ScalarDate, Millis: ms, Text: strconv.FormatInt(ms, 10)}
}

// ---- match family ----

type matchType uint8

const (
	matchBool matchType = iota
	matchPhrase
	matchPhrasePrefix
	matchBoolPrefix
)

func (t matchType) name() string {
	switch t {
	case matchPhrase:
		return "match_phrase"
	case matchPhrasePrefix:
		return "match_phrase_prefix"
	case matchBoolPrefix:
		return "match_bool_prefix"
	}
	return "match"
}

// matchOpts are the options of the match family and multi_match.
type matchOpts struct {
	text          jsonr.Result
	and           bool
	msm           string
	analyzer      analysis.Analyzer
	analyzerName  string
	fuzzy         *fuzziness
	prefixLength  int
	maxExpansions int
	transpose     bool
	slop          int
	zeroAll       bool
	boost         float64
}

func defaultMatchOpts() matchOpts {
	return matchOpts{maxExpansions: 50, transpose: true, boost: 1}
}

// matchOption reads one option shared by match and multi_match; ok is false when the
// key is not one.
func (d *decoder) matchOption(o *matchOpts, key string, val jsonr.Result, path string) (bool, error) {
	p := join(path, key)
	var err error
	switch key {
	case "query":
		if val.Type != jsonr.String && val.Type != jsonr.Number && val.Type != jsonr.True && val.Type != jsonr.False {
			return true, wrongType(p, "a string, a number or a boolean", val)
		}
		o.text = val
	case "operator":
		o.and, err = operator(val, p)
	case "minimum_should_match":
		var s string
		if s, err = str(val, p); err == nil {
			if _, ok := minShouldMatch(1<<20, s); !ok {
				err = errorf(edge.CodeInvalidArgument, p, "bad minimum_should_match \""+clip(s)+"\"")
			}
			o.msm = s
		}
	case "analyzer":
		var s string
		if s, err = strictStr(val, p); err == nil {
			a, ok := analysis.ByName(s)
			if !ok {
				return true, errorf(edge.CodeInvalidArgument, p, "analyzer ["+clip(s)+"] not found; use standard, simple, whitespace or keyword")
			}
			o.analyzer, o.analyzerName = a, s
		}
	case "fuzziness":
		var f fuzziness
		f, err = parseFuzziness(val, p)
		o.fuzzy = &f
	case "prefix_length":
		o.prefixLength, err = integer(val, p, 0, 1<<20)
	case "max_expansions":
		o.maxExpansions, err = integer(val, p, 1, d.lim.MaxExpansions)
	case "fuzzy_transpositions":
		o.transpose, err = boolean(val, p)
	case "slop":
		o.slop, err = integer(val, p, 0, 1<<20)
	case "zero_terms_query":
		var s string
		if s, err = strictStr(val, p); err == nil {
			switch strings.ToLower(s) {
			case "none":
				o.zeroAll = false
			case "all":
				o.zeroAll = true
			default:
				err = errorf(edge.CodeInvalidArgument, p, "must be \"none\" or \"all\"")
			}
		}
	case "boost":
		o.boost, err = boost(val, p)
	case "_name", "fuzzy_rewrite", "rewrite":
		_, err = strictStr(val, p)
	case "lenient", "auto_generate_synonyms_phrase_query":
		_, err = boolean(val, p)
	case "cutoff_frequency":
		err = errorf(edge.CodeInvalidQuery, p, "cutoff_frequency was removed in Elasticsearch 8 and is not supported")
	default:
		return false, nil
	}
	return true, err
}

func (d *decoder) match(body jsonr.Result, path string, typ matchType) (query.Query, error) {
	field, fv, err := d.single(body, path, typ.name())
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	o := defaultMatchOpts()
	if fv.IsObject() {
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			ok, err := d.matchOption(&o, key, val, fp)
			if !ok {
				return unsupported(fp, typ.name(), key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !o.text.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "["+typ.name()+"] requires query")
		}
	} else {
		o.text = fv
	}
	q, err := d.matchField(field, typ, &o, fp)
	if err != nil {
		return nil, err
	}
	return boosted(q, o.boost), nil
}

// matchField compiles a match-family query on one field (without the boost).
func (d *decoder) matchField(field string, typ matchType, o *matchOpts, path string) (query.Query, error) {
	qp := join(path, "query")
	switch d.kindOf(field) {
	case kindNumber, kindDate, kindBool:
		// Elasticsearch answers match on a non-text field with a term query.
		q, err := d.exactQuery(field, o.text, qp)
		if err != nil {
			return nil, err
		}
		return q, d.count(1, path)
	}
	text, err := scalarText(o.text, qp)
	if err != nil {
		return nil, err
	}
	a := o.analyzer
	if a == nil {
		a = analysis.Standard
		if d.kindOf(field) == kindKeyword {
			a = analysis.Keyword
		}
	}
	tokens := a(nil, text)
	if len(tokens) == 0 {
		if o.zeroAll {
			return query.MatchAll{}, d.count(1, path)
		}
		return query.MatchNone{}, d.count(1, path)
	}
	if err := d.count(len(tokens), path); err != nil {
		return nil, err
	}
	switch typ {
	case matchPhrase, matchPhrasePrefix:
		if len(tokens) == 1 {
			if typ == matchPhrasePrefix {
				return query.Prefix{Field: field, Prefix: tokens[0].Term}, nil
			}
			return query.Term{Field: field, Text: tokens[0].Term}, nil
		}
		terms := make([]string, len(tokens))
		pos := make([]int, len(tokens))
		base := tokens[0].Position
		for i, t := range tokens {
			terms[i], pos[i] = t.Term, t.Position-base
		}
		if typ == matchPhrasePrefix {
			return query.PhrasePrefix{Field: field, Terms: terms, Positions: pos, Slop: o.slop, MaxExpansions: o.maxExpansions}, nil
		}
		return query.Phrase{Field: field, Terms: terms, Positions: pos, Slop: o.slop}, nil
	}
	leaf := func(i int) query.Query {
		t := tokens[i].Term
		if typ == matchBoolPrefix && i == len(tokens)-1 {
			return query.Prefix{Field: field, Prefix: t}
		}
		if o.fuzzy != nil {
			return query.Fuzzy{Field: field, Term: t, MaxEdits: o.fuzzy.edits(t), PrefixLength: o.prefixLength,
				MaxExpansions: o.maxExpansions, Transpositions: o.transpose}
		}
		return query.Term{Field: field, Text: t}
	}
	if len(tokens) == 1 {
		return leaf(0), nil
	}
	occur := query.Should
	if o.and {
		occur = query.Must
	}
	clauses := make([]query.Clause, len(tokens))
	for i := range tokens {
		clauses[i] = query.Clause{Occur: occur, Query: leaf(i)}
	}
	b := query.Bool{Clauses: clauses}
	if !o.and && o.msm != "" {
		if m, ok := minShouldMatch(len(clauses), o.msm); ok && m > 0 {
			b.MinimumShouldMatch = m
		}
	}
	return b, nil
}

// minShouldMatch is Elasticsearch's Queries.calculateMinShouldMatch: integers,
// negative integers, percentages (rounded down), negative percentages and conditional
// specs such as "3<90%" or "2<-25% 9<-3". ok is false for a malformed spec.
func minShouldMatch(optional int, spec string) (int, bool) {
	spec = strings.TrimSpace(spec)
	if strings.Contains(spec, "<") {
		// Spaces around '<' are removed, then the spec splits on spaces.
		for strings.Contains(spec, " <") || strings.Contains(spec, "< ") {
			spec = strings.ReplaceAll(strings.ReplaceAll(spec, " <", "<"), "< ", "<")
		}
		result := optional
		for _, part := range strings.Split(spec, " ") {
			if part == "" {
				return 0, false
			}
			bound, rest, ok := strings.Cut(part, "<")
			if !ok {
				return 0, false
			}
			upper, err := strconv.Atoi(bound)
			if err != nil {
				return 0, false
			}
			if optional <= upper {
				return result, true
			}
			r, ok := minShouldMatch(optional, rest)
			if !ok {
				return 0, false
			}
			result = r
		}
		return result, true
	}
	result := optional
	if strings.HasSuffix(spec, "%") {
		pct, err := strconv.Atoi(spec[:len(spec)-1])
		if err != nil || pct < -100 || pct > 100 {
			return 0, false
		}
		calc := float32(result*pct) * (1 / float32(100))
		if calc < 0 {
			result += int(calc)
		} else {
			result = int(calc)
		}
	} else {
		n, err := strconv.Atoi(spec)
		if err != nil {
			return 0, false
		}
		if n < 0 {
			result += n
		} else {
			result = n
		}
	}
	if result < 0 {
		result = 0
	}
	return result, true
}

// fuzziness is Elasticsearch's Fuzziness: a fixed edit distance, or AUTO[:low,high].
type fuzziness struct {
	auto      bool
	fixed     int
	low, high int
}

func parseFuzziness(v jsonr.Result, path string) (fuzziness, error) {
	var s string
	switch v.Type {
	case jsonr.String:
		s = strings.TrimSpace(v.Str)
	case jsonr.Number:
		s = v.Raw
	default:
		return fuzziness{}, wrongType(path, "AUTO, AUTO:low,high, 0, 1 or 2", v)
	}
	up := strings.ToUpper(s)
	if up == "AUTO" {
		return fuzziness{auto: true, low: 3, high: 6}, nil
	}
	if rest, ok := strings.CutPrefix(up, "AUTO:"); ok {
		a, b, ok := strings.Cut(rest, ",")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || lo < 0 || hi < lo {
			return fuzziness{}, errorf(edge.CodeInvalidArgument, path, "failed to parse [\""+clip(s)+"\"] as \"AUTO:int,int\"")
		}
		return fuzziness{auto: true, low: lo, high: hi}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return fuzziness{}, errorf(edge.CodeInvalidArgument, path, "fuzziness must be AUTO, AUTO:low,high, 0, 1 or 2, not \""+clip(s)+"\"")
	}
	n := int(f)
	if n > 2 {
		n = 2
	}
	return fuzziness{fixed: n}, nil
}

// edits is Fuzziness.asDistance: AUTO gives 0 edits below low code points, 1 below
// high, else 2.
func (f fuzziness) edits(term string) int {
	if !f.auto {
		return f.fixed
	}
	n := 0
	for range term {
		n++
	}
	switch {
	case n < f.low:
		return 0
	case n < f.high:
		return 1
	}
	return 2
}

// ---- multi_match ----

func (d *decoder) multiMatch(body jsonr.Result, path string) (query.Query, error) {
	o := defaultMatchOpts()
	var fields []jsonr.Result
	fieldsGiven := false
	typ := "best_fields"
	tie := -1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := d.matchOption(&o, key, val, path); ok {
			return err
		}
		p := join(path, key)
		switch key {
		case "fields":
			fieldsGiven = true
			switch {
			case val.IsArray():
				fields = val.Array()
			case val.Type == jsonr.String:
				fields = []jsonr.Result{val}
			default:
				return wrongType(p, "an array of field names", val)
			}
		case "type":
			s, err := strictStr(val, p)
			if err != nil {
				return err
			}
			switch s = strings.ToLower(s); s {
			case "best_fields", "most_fields", "cross_fields", "phrase", "phrase_prefix", "bool_prefix":
				typ = s
			default:
				return errorf(edge.CodeInvalidArgument, p, "unknown multi_match type ["+clip(s)+"]")
			}
		case "tie_breaker":
			f, err := number(val, p)
			if err != nil {
				return err
			}
			tie = f
		default:
			return unsupported(path, "multi_match", key)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !o.text.Exists() {
		return nil, errorf(edge.CodeInvalidQuery, path, "[multi_match] requires query")
	}
	type fb struct {
		field string
		boost float64
	}
	var list []fb
	add := func(name string, b float64, p string) error {
		if strings.Contains(name, "*") {
			for _, f := range d.expandPattern(name) {
				list = append(list, fb{f, b})
			}
		} else {
			list = append(list, fb{name, b})
		}
		if len(list) > d.lim.MaxClauses {
			return errorf(edge.CodeTooComplex, p, "the query names more than "+strconv.Itoa(d.lim.MaxClauses)+" fields (limit: max clause count)")
		}
		return nil
	}
	if !fieldsGiven {
		if err := add("*", 1, join(path, "fields")); err != nil {
			return nil, err
		}
	}
	for i, f := range fields {
		p := index(join(path, "fields"), i)
		s, err := strictStr(f, p)
		if err != nil {
			return nil, err
		}
		name, b, err := fieldBoost(s, p)
		if err != nil {
			return nil, err
		}
		if err := add(name, b, p); err != nil {
			return nil, err
		}
	}
	if tie < 0 {
		tie = 0
		if typ == "most_fields" {
			tie = 1 // Elasticsearch's most_fields is a dis_max with tie_breaker 1.0
		}
	}
	if typ == "cross_fields" {
		fields := make([]string, len(list))
		boosts := make([]float64, len(list))
		for i, f := range list {
			fields[i], boosts[i] = f.field, f.boost
		}
		q, err := d.crossFields(fields, boosts, &o, path, tie)
		if err != nil {
			return nil, err
		}
		return boosted(q, o.boost), nil
	}
	mt := matchBool
	switch typ {
	case "phrase":
		mt = matchPhrase
	case "phrase_prefix":
		mt = matchPhrasePrefix
	case "bool_prefix":
		mt = matchBoolPrefix
	}
	var qs []query.Query
	for _, f := range list {
		q, err := d.matchField(f.field, mt, &o, path)
		if err != nil {
			return nil, err
		}
		qs = append(qs, boosted(q, f.boost))
	}
	var q query.Query
	switch len(qs) {
	case 0:
		q = query.MatchNone{}
	case 1:
		q = qs[0]
	default:
		q = query.DisMax{Queries: qs, TieBreaker: tie}
	}
	return boosted(q, o.boost), nil
}

// crossFields approximates Elasticsearch's term-centric cross_fields: each term may
// match in any field (a dis_max over the fields), and operator/minimum_should_match
// apply to terms. Elasticsearch also blends the fields' term statistics; we do not.
func (d *decoder) crossFields(fields []string, boosts []float64, o *matchOpts, path string, tie float64) (query.Query, error) {
	text, err := scalarText(o.text, join(path, "query"))
	if err != nil {
		return nil, err
	}
	a := o.analyzer
	if a == nil {
		a = analysis.Standard
	}
	tokens := a(nil, text)
	if len(tokens) == 0 || len(fields) == 0 {
		if o.zeroAll {
			return query.MatchAll{}, nil
		}
		return query.MatchNone{}, nil
	}
	if err := d.count(len(tokens)*len(fields), path); err != nil {
		return nil, err
	}
	per := make([]query.Query, len(tokens))
	for i, t := range tokens {
		qs := make([]query.Query, len(fields))
		for j, f := range fields {
			qs[j] = boosted(query.Term{Field: f, Text: t.Term}, boosts[j])
		}
		if len(qs) == 1 {
			per[i] = qs[0]
		} else {
			per[i] = query.DisMax{Queries: qs, TieBreaker: tie}
		}
	}
	if len(per) == 1 {
		return per[0], nil
	}
	occur := query.Should
	if o.and {
		occur = query.Must
	}
	b := query.Bool{}
	for _, q := range per {
		b.Clauses = append(b.Clauses, query.Clause{Occur: occur, Query: q})
	}
	if !o.and && o.msm != "" {
		if m, ok := minShouldMatch(len(per), o.msm); ok && m > 0 {
			b.MinimumShouldMatch = m
		}
	}
	return b, nil
}

// fieldBoost splits "title^2" into the field and its boost.
func fieldBoost(s, path string) (string, float64, error) {
	name, b, ok := strings.Cut(s, "^")
	if !ok {
		return s, 1, nil
	}
	f, err := strconv.ParseFloat(b, 64)
	if err != nil || f < 0 {
		return "", 0, errorf(edge.CodeInvalidArgument, path, "bad field boost in \""+clip(s)+"\"")
	}
	return name, f, nil
}

// expandPattern returns the text fields matching a field pattern with '*' wildcards
// ("*" alone: every text field, as index.query.default_field "*" does).
func (d *decoder) expandPattern(pattern string) []string {
	if d.schema == nil {
		return []string{pattern}
	}
	var out []string
	for _, f := range d.schema.FieldNames() {
		if d.schema.FieldType(f)&content.TypeText == 0 {
			continue
		}
		if globMatch(pattern, f) {
			out = append(out, f)
		}
	}
	return out
}

// ---- term-level clauses ----

func (d *decoder) term(body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, "term")
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	b := 1.0
	ci := false
	value := fv
	if fv.IsObject() {
		value = jsonr.Result{}
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			if ok, err := isCommon(key, val, fp, &b); ok {
				return err
			}
			var err error
			switch key {
			case "value":
				value = val
			case "case_insensitive":
				ci, err = boolean(val, join(fp, key))
			default:
				return unsupported(fp, "term", key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !value.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "[term] requires value")
		}
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	var q query.Query
	if ci && (d.kindOf(field) == kindText || d.kindOf(field) == kindKeyword) {
		text, err := scalarText(value, join(fp, "value"))
		if err != nil {
			return nil, err
		}
		q = query.Regexp{Field: field, Pattern: caseInsensitiveLiteral(text)}
	} else {
		q, err = d.exactQuery(field, value, join(fp, "value"))
		if err != nil {
			return nil, err
		}
	}
	// D6: term does not score; ConstantScore makes that explicit to the evaluator.
	return boosted(query.ConstantScore{Query: q}, b), nil
}

func (d *decoder) terms(body jsonr.Result, path string) (query.Query, error) {
	if !body.IsObject() {
		return nil, wrongType(path, "an object", body)
	}
	b := 1.0
	var field string
	var values jsonr.Result
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		if field != "" {
			return errorf(edge.CodeInvalidQuery, path, "[terms] query does not support multiple fields, found ["+clip(field)+"] and ["+clip(key)+"]")
		}
		field, values = key, val
		return nil
	})
	if err != nil {
		return nil, err
	}
	if field == "" {
		return nil, errorf(edge.CodeInvalidQuery, path, "[terms] query requires a field")
	}
	fp := join(path, field)
	if values.IsObject() {
		return nil, errorf(edge.CodeInvalidQuery, fp, "terms lookup (values from another document) is not supported")
	}
	if !values.IsArray() {
		return nil, wrongType(fp, "an array of values", values)
	}
	arr := values.Array()
	if len(arr) > d.lim.MaxTerms {
		return nil, errorf(edge.CodeTooComplex, fp, "more than "+strconv.Itoa(d.lim.MaxTerms)+" terms (limit: max terms count)")
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	if len(arr) == 0 {
		return query.MatchNone{}, nil
	}
	clauses := make([]query.Clause, 0, len(arr))
	for i, v := range arr {
		q, err := d.exactQuery(field, v, index(fp, i))
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, query.Clause{Occur: query.Should, Query: q})
	}
	// Elasticsearch's TermInSetQuery: a constant-score disjunction.
	return boosted(query.ConstantScore{Query: query.Bool{Clauses: clauses}}, b), nil
}

func (d *decoder) rangeClause(body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, "range")
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	if !fv.IsObject() {
		return nil, wrongType(fp, "an object of bounds such as {\"gte\": ...}", fv)
	}
	type bound struct {
		v    jsonr.Result
		incl bool
		path string
	}
	var lo, hi *bound
	inclLo, inclHi := true, true
	var fromTo [2]*bound
	b := 1.0
	var format, zone string
	err = d.members(fv, fp, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, fp, &b); ok {
			return err
		}
		p := join(fp, key)
		var err error
		switch key {
		case "gte", "gt":
			lo = &bound{val, key == "gte", p}
		case "lte", "lt":
			hi = &bound{val, key == "lte", p}
		case "from":
			fromTo[0] = &bound{val, true, p}
		case "to":
			fromTo[1] = &bound{val, true, p}
		case "include_lower":
			inclLo, err = boolean(val, p)
		case "include_upper":
			inclHi, err = boolean(val, p)
		case "format":
			format, err = strictStr(val, p)
		case "time_zone":
			zone, err = strictStr(val, p)
		case "relation":
			var s string
			if s, err = strictStr(val, p); err == nil && !strings.EqualFold(s, "intersects") && !strings.EqualFold(s, "within") && !strings.EqualFold(s, "contains") {
				err = errorf(edge.CodeInvalidArgument, p, "must be INTERSECTS, WITHIN or CONTAINS")
			}
		default:
			return unsupported(fp, "range", key)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if lo == nil && fromTo[0] != nil {
		lo = fromTo[0]
		lo.incl = inclLo
	}
	if hi == nil && fromTo[1] != nil {
		hi = fromTo[1]
		hi.incl = inclHi
	}
	if lo != nil && lo.v.Type == jsonr.Null {
		lo = nil
	}
	if hi != nil && hi.v.Type == jsonr.Null {
		hi = nil
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	if lo == nil && hi == nil {
		// Elasticsearch rewrites an unbounded range to exists.
		return boosted(query.Exists{Field: field}, b), nil
	}
	kind := d.kindOf(field)
	q := query.Range{Field: field}
	var offset int64
	if zone != "" {
		offset, err = zoneOffset(zone, join(fp, "time_zone"))
		if err != nil {
			return nil, err
		}
	}
	conv := func(bd *bound, upper bool) (*query.Bound, error) {
		v := bd.v
		switch kind {
		case kindDate:
			ms, err := dateBound(v, bd.path, format, offset)
			if err != nil {
				return nil, err
			}
			// Printed as Elasticsearch prints date ranges: inclusive milliseconds.
			if !bd.incl {
				if upper {
					ms--
				} else {
					ms++
				}
			}
			return &query.Bound{Value: dateScalar(ms), Inclusive: true}, nil
		case kindNumber:
			f, err := number(v, bd.path)
			if err != nil {
				return nil, err
			}
			return &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: f, Text: strings.Trim(v.Raw, `"`)}, Inclusive: bd.incl}, nil
		case kindBool:
			bl, err := boolean(v, bd.path)
			if err != nil {
				return nil, err
			}
			return &query.Bound{Value: query.Scalar{Kind: query.ScalarBool, Bool: bl, Text: strconv.FormatBool(bl)}, Inclusive: bd.incl}, nil
		}
		switch v.Type {
		case jsonr.Number:
			return &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: v.Num, Text: v.Raw}, Inclusive: bd.incl}, nil
		case jsonr.String:
			return &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: v.Str, Text: v.Str}, Inclusive: bd.incl}, nil
		case jsonr.True, jsonr.False:
			bl := v.Type == jsonr.True
			return &query.Bound{Value: query.Scalar{Kind: query.ScalarBool, Bool: bl, Text: v.Raw}, Inclusive: bd.incl}, nil
		}
		return nil, wrongType(bd.path, "a string, a number or a boolean", v)
	}
	if lo != nil {
		if q.Lower, err = conv(lo, false); err != nil {
			return nil, err
		}
	}
	if hi != nil {
		if q.Upper, err = conv(hi, true); err != nil {
			return nil, err
		}
	}
	return boosted(q, b), nil
}

// dateBound parses a date bound (D5, D12): a date-time string (the start of the unit
// written; a zone-less value is in time_zone, default UTC), or epoch milliseconds.
func dateBound(v jsonr.Result, path, format string, offset int64) (int64, error) {
	switch v.Type {
	case jsonr.Number:
		if format == "epoch_second" {
			return int64(v.Num * 1000), nil
		}
		return int64(v.Num), nil
	case jsonr.String:
		s := strings.TrimSpace(v.Str)
		if strings.HasPrefix(s, "now") || strings.Contains(s, "||") {
			return 0, errorf(edge.CodeInvalidArgument, path, "date math (\""+clip(s)+"\") is not supported: responses are cached, so give an explicit date-time")
		}
		switch format {
		case "epoch_millis", "epoch_second":
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return 0, errorf(edge.CodeInvalidArgument, path, "\""+clip(s)+"\" is not "+format)
			}
			if format == "epoch_second" {
				n *= 1000
			}
			return n, nil
		}
		inst, err := datetime.Parse(s)
		if err != nil {
			return 0, errorf(edge.CodeInvalidArgument, path, err.Error())
		}
		ms := inst.Millis
		if !hasZone(s) {
			ms -= offset
		}
		return ms, nil
	}
	return 0, wrongType(path, "a date-time string or epoch milliseconds", v)
}

// hasZone reports whether a date-time text ends in Z or ±hh:mm.
func hasZone(s string) bool {
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return true
	}
	if !strings.Contains(s, "T") {
		return false
	}
	n := len(s)
	return n >= 6 && (s[n-6] == '+' || s[n-6] == '-') && s[n-3] == ':'
}

// zoneOffset parses a time_zone: UTC, Z or a fixed offset ±hh:mm, in milliseconds.
func zoneOffset(z, path string) (int64, error) {
	switch z {
	case "UTC", "Z", "Etc/UTC", "GMT", "+00:00", "-00:00":
		return 0, nil
	}
	if len(z) == 6 && (z[0] == '+' || z[0] == '-') && z[3] == ':' {
		h, err1 := strconv.Atoi(z[1:3])
		m, err2 := strconv.Atoi(z[4:6])
		if err1 == nil && err2 == nil && h <= 18 && m < 60 {
			off := int64(h*3600000 + m*60000)
			if z[0] == '-' {
				off = -off
			}
			return off, nil
		}
	}
	return 0, errorf(edge.CodeInvalidArgument, path, "time_zone must be UTC or a fixed offset such as +02:00, not \""+clip(z)+"\"")
}

// pattern compiles prefix, wildcard and regexp (D10, D12): the pattern as given, unless
// case_insensitive is true.
func (d *decoder) pattern(kind string, body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, kind)
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	b := 1.0
	ci := false
	var value jsonr.Result
	if fv.IsObject() {
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			if ok, err := isCommon(key, val, fp, &b); ok {
				return err
			}
			p := join(fp, key)
			var err error
			switch {
			case key == "value" || kind == "wildcard" && key == "wildcard":
				value = val
			case key == "case_insensitive":
				ci, err = boolean(val, p)
			case key == "rewrite":
				_, err = strictStr(val, p)
			case kind == "regexp" && key == "flags":
				_, err = strictStr(val, p)
			case kind == "regexp" && key == "flags_value":
				_, err = integer(val, p, -1<<31, 1<<31-1)
			case kind == "regexp" && key == "max_determinized_states":
				_, err = integer(val, p, 1, 1<<31-1)
			default:
				return unsupported(fp, kind, key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !value.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "["+kind+"] requires value")
		}
	} else {
		value = fv
	}
	text, err := scalarText(value, join(fp, "value"))
	if err != nil {
		return nil, err
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	var q query.Query
	switch {
	case ci && kind == "prefix":
		q = query.Regexp{Field: field, Pattern: caseInsensitiveLiteral(text) + ".*"}
	case ci && kind == "wildcard":
		q = query.Regexp{Field: field, Pattern: caseInsensitiveWildcard(text)}
	case ci:
		q = query.Regexp{Field: field, Pattern: caseInsensitiveRegexp(text)}
	case kind == "prefix":
		q = query.Prefix{Field: field, Prefix: text}
	case kind == "wildcard":
		q = query.Wildcard{Field: field, Pattern: text}
	default:
		q = query.Regexp{Field: field, Pattern: text}
	}
	return boosted(q, b), nil
}

func (d *decoder) fuzzy(body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, "fuzzy")
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	b := 1.0
	fz := fuzziness{auto: true, low: 3, high: 6}
	q := query.Fuzzy{Field: field, MaxExpansions: 50, Transpositions: true}
	var value jsonr.Result
	if fv.IsObject() {
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			if ok, err := isCommon(key, val, fp, &b); ok {
				return err
			}
			p := join(fp, key)
			var err error
			switch key {
			case "value":
				value = val
			case "fuzziness":
				fz, err = parseFuzziness(val, p)
			case "prefix_length":
				q.PrefixLength, err = integer(val, p, 0, 1<<20)
			case "max_expansions":
				q.MaxExpansions, err = integer(val, p, 1, d.lim.MaxExpansions)
			case "transpositions":
				q.Transpositions, err = boolean(val, p)
			case "rewrite":
				_, err = strictStr(val, p)
			default:
				return unsupported(fp, "fuzzy", key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !value.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "[fuzzy] requires value")
		}
	} else {
		value = fv
	}
	text, err := scalarText(value, join(fp, "value"))
	if err != nil {
		return nil, err
	}
	q.Term = text
	q.MaxEdits = fz.edits(text)
	return boosted(q, b), d.count(1, path)
}

func (d *decoder) exists(body jsonr.Result, path string) (query.Query, error) {
	var field string
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		if key != "field" {
			return unsupported(path, "exists", key)
		}
		var err error
		field, err = strictStr(val, join(path, key))
		return err
	})
	if err != nil {
		return nil, err
	}
	if field == "" {
		return nil, errorf(edge.CodeInvalidQuery, path, "[exists] requires field")
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	field = strings.TrimSuffix(field, ".keyword")
	// An object (Data, Data.hero) exists when any field below it does.
	if d.schema != nil && d.schema.FieldType(field) == 0 {
		var subs []query.Clause
		for _, f := range d.schema.FieldNames() {
			if strings.HasPrefix(f, field+".") {
				subs = append(subs, query.Clause{Occur: query.Should, Query: query.Exists{Field: f}})
			}
		}
		if len(subs) > 0 {
			if err := d.count(len(subs), path); err != nil {
				return nil, err
			}
			return boosted(query.ConstantScore{Query: query.Bool{Clauses: subs}}, b), nil
		}
	}
	return boosted(query.Exists{Field: field}, b), nil
}

func (d *decoder) ids(body jsonr.Result, path string) (query.Query, error) {
	var ids []string
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		switch key {
		case "values":
			if !val.IsArray() {
				return wrongType(p, "an array of ContentIDs", val)
			}
			arr := val.Array()
			if len(arr) > d.lim.MaxTerms {
				return errorf(edge.CodeTooComplex, p, "more than "+strconv.Itoa(d.lim.MaxTerms)+" ids (limit: max terms count)")
			}
			for i, v := range arr {
				s, err := scalarText(v, index(p, i))
				if err != nil {
					return err
				}
				ids = append(ids, s)
			}
		case "type", "types":
			return errorf(edge.CodeInvalidQuery, p, "mapping types were removed in Elasticsearch 8")
		default:
			return unsupported(path, "ids", key)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return boosted(query.IDs{Values: ids}, b), d.count(1, path)
}

// ---- compound clauses ----

func (d *decoder) clauseList(v jsonr.Result, path string, depth int) ([]query.Query, error) {
	if v.IsArray() {
		var out []query.Query
		var err error
		i := 0
		v.ForEach(func(_, c jsonr.Result) bool {
			var q query.Query
			q, err = d.query(c, index(path, i), depth+1)
			i++
			if err != nil {
				return false
			}
			out = append(out, q)
			return true
		})
		return out, err
	}
	q, err := d.query(v, path, depth+1)
	if err != nil {
		return nil, err
	}
	return []query.Query{q}, nil
}

func (d *decoder) boolClause(body jsonr.Result, path string, depth int) (query.Query, error) {
	var must, filter, should, mustNot []query.Query
	b := 1.0
	msm := ""
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		var err error
		var qs []query.Query
		switch key {
		case "must", "filter", "should", "must_not":
			qs, err = d.clauseList(val, p, depth)
		case "minimum_should_match":
			if msm, err = str(val, p); err == nil {
				if _, ok := minShouldMatch(1<<20, msm); !ok {
					err = errorf(edge.CodeInvalidArgument, p, "bad minimum_should_match \""+clip(msm)+"\"")
				}
			}
		case "adjust_pure_negative":
			_, err = boolean(val, p)
		default:
			return unsupported(path, "bool", key)
		}
		switch key {
		case "must":
			must = append(must, qs...)
		case "filter":
			filter = append(filter, qs...)
		case "should":
			should = append(should, qs...)
		case "must_not":
			mustNot = append(mustNot, qs...)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var q query.Bool
	add := func(occur query.Occur, qs []query.Query) {
		for _, x := range qs {
			q.Clauses = append(q.Clauses, query.Clause{Occur: occur, Query: x})
		}
	}
	// Lucene's order of clauses as Elasticsearch adds them: must, must_not, should, filter.
	add(query.Must, must)
	add(query.MustNot, mustNot)
	add(query.Should, should)
	add(query.Filter, filter)
	if err := d.count(len(q.Clauses), path); err != nil {
		return nil, err
	}
	if len(q.Clauses) == 0 {
		return boosted(query.MatchAll{}, b), nil
	}
	if msm != "" {
		if m, _ := minShouldMatch(len(should), msm); m > 0 {
			q.MinimumShouldMatch = m
		}
	}
	if len(mustNot) == len(q.Clauses) {
		// A pure negative query matches everything else (Elasticsearch's
		// fixNegativeQueryIfNeeded adds *:* as a filter).
		q.Clauses = append(q.Clauses, query.Clause{Occur: query.Filter, Query: query.MatchAll{}})
	}
	return boosted(q, b), nil
}

func (d *decoder) constantScore(body jsonr.Result, path string, depth int) (query.Query, error) {
	var inner query.Query
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		if key != "filter" {
			return unsupported(path, "constant_score", key)
		}
		var err error
		inner, err = d.query(val, join(path, key), depth+1)
		return err
	})
	if err != nil {
		return nil, err
	}
	if inner == nil {
		return nil, errorf(edge.CodeInvalidQuery, path, "[constant_score] requires a 'filter' element")
	}
	return boosted(query.ConstantScore{Query: inner}, b), nil
}

func (d *decoder) disMax(body jsonr.Result, path string, depth int) (query.Query, error) {
	var qs []query.Query
	b, tie := 1.0, 0.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		var err error
		switch key {
		case "queries":
			qs, err = d.clauseList(val, p, depth)
		case "tie_breaker":
			tie, err = number(val, p)
		default:
			return unsupported(path, "dis_max", key)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, errorf(edge.CodeInvalidQuery, path, "[dis_max] requires 'queries' field with at least one clause")
	}
	return boosted(query.DisMax{Queries: qs, TieBreaker: tie}, b), d.count(len(qs), path)
}
