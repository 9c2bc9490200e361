package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

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
	return false, errorf(edge.CodeInvalidArgument, p, "must be OR or AND, not \""+edge.Clip(s)+"\"")
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
				err = errorf(edge.CodeInvalidArgument, p, "bad minimum_should_match \""+edge.Clip(s)+"\"")
			}
			o.msm = s
		}
	case "analyzer":
		var s string
		if s, err = strictStr(val, p); err == nil {
			a, ok := analysis.ByName(s)
			if !ok {
				return true, errorf(edge.CodeInvalidArgument, p, "analyzer ["+edge.Clip(s)+"] not found; use standard, simple, whitespace or keyword")
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
		if len(tokens) == 1 && typ == matchPhrase {
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
		// Spaces around '<' are removed, then the documented form splits on spaces.
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
				return errorf(edge.CodeInvalidArgument, p, "unknown multi_match type ["+edge.Clip(s)+"]")
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
	list, err := d.multiMatchFields(fields, fieldsGiven, path)
	if err != nil {
		return nil, err
	}
	if tie < 0 {
		tie = 0
		if typ == "most_fields" || typ == "bool_prefix" {
			// Elasticsearch's most_fields and bool_prefix sum their fields' scores: a
			// dis_max with tie_breaker 1.0.
			tie = 1
		}
	}
	q, err := d.multiMatchQuery(list, typ, &o, path, tie)
	if err != nil {
		return nil, err
	}
	return boosted(q, o.boost), nil
}

// weightedField is one field multi_match searches, with its ^boost.
type weightedField struct {
	field string
	boost float64
}

// multiMatchFields reads multi_match's fields ("*" when not given): "name^boost"
// entries, field patterns expanded to the text fields they match.
func (d *decoder) multiMatchFields(fields []jsonr.Result, fieldsGiven bool, path string) ([]weightedField, error) {
	var list []weightedField
	add := func(name string, b float64, p string) error {
		if strings.Contains(name, "*") {
			for _, f := range d.expandPattern(name) {
				list = append(list, weightedField{f, b})
			}
		} else {
			list = append(list, weightedField{name, b})
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
	return list, nil
}

// multiMatchQuery compiles multi_match of type typ over the fields (without the
// query's own boost): cross_fields is term-centric, every other type a dis_max of
// one match-family query per field.
func (d *decoder) multiMatchQuery(list []weightedField, typ string, o *matchOpts, path string, tie float64) (query.Query, error) {
	if typ == "cross_fields" {
		fields := make([]string, len(list))
		boosts := make([]float64, len(list))
		for i, f := range list {
			fields[i], boosts[i] = f.field, f.boost
		}
		return d.crossFields(fields, boosts, o, path, tie)
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
		q, err := d.matchField(f.field, mt, o, path)
		if err != nil {
			return nil, err
		}
		qs = append(qs, boosted(q, f.boost))
	}
	switch len(qs) {
	case 0:
		return query.MatchNone{}, nil
	case 1:
		return qs[0], nil
	}
	return query.DisMax{Queries: qs, TieBreaker: tie}, nil
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
		return "", 0, errorf(edge.CodeInvalidArgument, path, "bad field boost in \""+edge.Clip(s)+"\"")
	}
	return name, f, nil
}

// textFielder is a Schema that keeps the list of its text fields (content.Fields).
type textFielder interface {
	TextFields() []string
}

// expandPattern returns the text fields matching a field pattern with '*' wildcards
// ("*" alone: every text field, as index.query.default_field "*" does).
func (d *decoder) expandPattern(pattern string) []string {
	if d.schema == nil {
		return []string{pattern}
	}
	if tf, ok := d.schema.(textFielder); ok && pattern == "*" {
		return tf.TextFields() // resolved once per snapshot, not per request
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
