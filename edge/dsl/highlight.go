package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Highlight defaults, as Elasticsearch's.
const (
	DefaultFragmentSize      = 100
	DefaultNumberOfFragments = 5
	// MaxHighlightFields bounds the fields one highlight resolves to.
	MaxHighlightFields = 256
	// maxTags bounds pre_tags and post_tags.
	maxTags = 64
)

// highlightOptions are the options a highlight takes at the top level and per field.
type highlightOptions struct {
	pre, post         []string
	fragmentSize      int
	numberOfFragments int
	byScore           bool
	html              bool
	anyField          bool
	noMatchSize       int
}

// highlightIgnored are options accepted and ignored: every highlighter type is
// served by the plain one.
var highlightIgnored = [...]string{
	"type", "fragmenter", "boundary_scanner", "boundary_chars", "boundary_max_scan",
	"boundary_scanner_locale", "force_source", "phrase_limit", "max_analyzed_offset",
	"fragment_offset", "matched_fields",
}

// highlight decodes the highlight member (Elasticsearch's, for the plain highlighter)
// into the query model: its field patterns resolved against the schema's text fields.
func (d *decoder) highlight(v jsonr.Result, path string) (*query.Highlight, error) {
	if !v.IsObject() {
		return nil, wrongType(path, "an object", v)
	}
	opts := highlightOptions{pre: []string{"<em>"}, post: []string{"</em>"}, fragmentSize: DefaultFragmentSize, numberOfFragments: DefaultNumberOfFragments}
	h := &query.Highlight{}
	var fields *jsonr.Result
	var fieldsPath string
	err := d.members(v, path, func(key string, val jsonr.Result) error {
		p := join(path, key)
		switch key {
		case "fields":
			val2 := val
			fields, fieldsPath = &val2, p
			return nil
		case "highlight_query":
			q, err := d.query(val, p, 0)
			h.Query = q
			return err
		case "tags_schema":
			s, err := str(val, p)
			if err == nil && s != "styled" {
				err = errorf(edge.CodeInvalidArgument, p, "only \"styled\" is a tags schema, not \""+clip(s)+"\"")
			}
			opts.pre = styledPre
			opts.post = []string{"</em>"}
			return err
		}
		return d.highlightOption(&opts, key, val, p)
	})
	if err != nil {
		return nil, err
	}
	if fields == nil {
		return nil, errorf(edge.CodeInvalidArgument, path, "highlight needs \"fields\": the fields to highlight")
	}
	add := func(pattern string, spec jsonr.Result, p string) error {
		fo := opts
		if !spec.IsObject() {
			return wrongType(p, "an object of highlight options", spec)
		}
		if err := d.members(spec, p, func(key string, val jsonr.Result) error {
			return d.highlightOption(&fo, key, val, join(p, key))
		}); err != nil {
			return err
		}
		for _, f := range d.highlightFields(pattern) {
			h.Fields = append(h.Fields, query.HighlightField{
				Field: f, PreTags: fo.pre, PostTags: fo.post, FragmentSize: fo.fragmentSize,
				NumberOfFragments: fo.numberOfFragments, ByScore: fo.byScore, HTMLEncode: fo.html,
				AnyField: fo.anyField, NoMatchSize: fo.noMatchSize,
			})
			if len(h.Fields) > MaxHighlightFields {
				return errorf(edge.CodeTooComplex, fieldsPath, "the highlight names more than "+strconv.Itoa(MaxHighlightFields)+" fields")
			}
		}
		return nil
	}
	switch {
	case fields.IsObject():
		err = d.members(*fields, fieldsPath, func(key string, val jsonr.Result) error { return add(key, val, join(fieldsPath, key)) })
	case fields.IsArray():
		i := 0
		fields.ForEach(func(_, e jsonr.Result) bool {
			p := index(fieldsPath, i)
			i++
			if !e.IsObject() {
				err = wrongType(p, "an object such as {\"Name\":{}}", e)
				return false
			}
			err = d.members(e, p, func(key string, val jsonr.Result) error { return add(key, val, join(p, key)) })
			return err == nil
		})
	default:
		err = wrongType(fieldsPath, "an object such as {\"Name\":{},\"Data.*\":{}}", *fields)
	}
	if err != nil {
		return nil, err
	}
	return h, nil
}

// styledPre are the pre tags of tags_schema "styled", as Elasticsearch's.
var styledPre = []string{
	`<em class="hlt1">`, `<em class="hlt2">`, `<em class="hlt3">`, `<em class="hlt4">`, `<em class="hlt5">`,
	`<em class="hlt6">`, `<em class="hlt7">`, `<em class="hlt8">`, `<em class="hlt9">`, `<em class="hlt10">`,
}

// highlightOption decodes one option shared by the highlight and its fields.
func (d *decoder) highlightOption(o *highlightOptions, key string, val jsonr.Result, p string) error {
	var err error
	switch key {
	case "pre_tags":
		o.pre, err = tagList(val, p)
	case "post_tags":
		o.post, err = tagList(val, p)
	case "fragment_size":
		o.fragmentSize, err = integer(val, p, 1, 1<<20)
	case "number_of_fragments":
		o.numberOfFragments, err = integer(val, p, 0, 1<<16)
	case "no_match_size":
		o.noMatchSize, err = integer(val, p, 0, 1<<20)
	case "order":
		var s string
		if s, err = str(val, p); err == nil {
			switch s {
			case "score":
				o.byScore = true
			case "none":
				o.byScore = false
			default:
				err = errorf(edge.CodeInvalidArgument, p, "order must be \"score\" or \"none\", not \""+clip(s)+"\"")
			}
		}
	case "encoder":
		var s string
		if s, err = str(val, p); err == nil {
			switch s {
			case "html":
				o.html = true
			case "default":
				o.html = false
			default:
				err = errorf(edge.CodeInvalidArgument, p, "encoder must be \"default\" or \"html\", not \""+clip(s)+"\"")
			}
		}
	case "require_field_match":
		var b bool
		b, err = boolean(val, p)
		o.anyField = !b
	default:
		if inList(highlightIgnored[:], key) {
			return nil
		}
		return errorf(edge.CodeInvalidQuery, p, "unknown highlight option ["+clip(key)+"]")
	}
	return err
}

// tagList reads pre_tags or post_tags: a non-empty array of strings (or one string).
func tagList(v jsonr.Result, path string) ([]string, error) {
	if v.Type == jsonr.String {
		return []string{v.Str}, nil
	}
	if !v.IsArray() {
		return nil, wrongType(path, "an array of strings", v)
	}
	var out []string
	var err error
	i := 0
	v.ForEach(func(_, e jsonr.Result) bool {
		var s string
		s, err = str(e, index(path, i))
		i++
		out = append(out, s)
		return err == nil && len(out) <= maxTags
	})
	switch {
	case err != nil:
		return nil, err
	case len(out) == 0:
		return nil, errorf(edge.CodeInvalidArgument, path, "must name at least one tag")
	case len(out) > maxTags:
		return nil, errorf(edge.CodeTooComplex, path, "more than "+strconv.Itoa(maxTags)+" tags")
	}
	return out, nil
}

// highlightFields resolves a field pattern (* is any run of characters) to the
// environment's text fields it names, sorted; a name without * is taken as it is
// (".keyword" removed), so that a field no item has highlights nothing.
func (d *decoder) highlightFields(pattern string) []string {
	pattern = strings.TrimSuffix(pattern, ".keyword")
	if !strings.Contains(pattern, "*") || d.schema == nil {
		if top, ok := d.schemaTopLevel(pattern); ok {
			return []string{top}
		}
		return []string{pattern}
	}
	var out []string
	for _, f := range d.schema.FieldNames() {
		if snapshot.IsDateMember(f) || d.schema.FieldType(f)&content.TypeText == 0 {
			continue
		}
		if globMatch(pattern, f) {
			out = append(out, f)
		}
	}
	return out
}

// schemaTopLevel is the canonical spelling of a top-level member.
func (d *decoder) schemaTopLevel(name string) (string, bool) {
	if d.schema == nil || strings.Contains(name, ".") {
		return "", false
	}
	return d.schema.TopLevel(name)
}
