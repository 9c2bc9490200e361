package difftest

import (
	"sort"
	"strings"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/tidwall/gjson"
)

// Kind is what a field holds, as the oracle types it: text (with its .keyword form),
// numbers, booleans or dates.
type Kind uint8

// Field kinds.
const (
	Text Kind = iota
	Number
	Bool
	Date
)

// Field is one field of the environment and the vocabulary queries are drawn from.
type Field struct {
	Name    string
	Kind    Kind
	Docs    int        // items with a value
	Terms   []string   // analysed terms (the text dictionary), sorted
	Exact   []string   // exact values (the .keyword dictionary) but "", sorted
	Words   []string   // whitespace-separated words of values as written (markup stripped)
	Runs    [][]string // runs of analysed tokens of values, for phrases
	Numbers []string   // numbers as written in the items
}

// Vocab is every field of an environment.
type Vocab struct {
	Fields []*Field
	byName map[string]*Field
	Text   []*Field // text fields with analysed terms
	Exact  []*Field // text fields with exact values
	Typed  []*Field // number, boolean and date fields
}

// Field returns the named field, or nil.
func (v *Vocab) Field(name string) *Field { return v.byName[name] }

const (
	maxWords = 400
	maxRuns  = 300
)

// NewVocab reads the fields of env's snapshot and samples its items' values.
func NewVocab(env *Env) *Vocab {
	s := env.Snap
	v := &Vocab{byName: map[string]*Field{}}
	for _, name := range s.FieldNames() {
		f := s.Field(name)
		fd := &Field{Name: name, Docs: f.DocCount()}
		for i := 0; i < f.Text().Len(); i++ {
			fd.Terms = append(fd.Terms, f.Text().Term(i))
		}
		for i := 0; i < f.Keyword().Len(); i++ {
			if t := f.Keyword().Term(i); t != "" {
				fd.Exact = append(fd.Exact, t)
			}
		}
		v.Fields = append(v.Fields, fd)
		v.byName[name] = fd
	}
	words := map[string]map[string]bool{}
	kinds := map[string][3]int{} // strings, numbers, booleans
	for doc := 0; doc < s.Len(); doc++ {
		gjson.Parse(s.Item(doc)).ForEach(func(k, val gjson.Result) bool {
			collect(k.Str, val, func(path string, x gjson.Result) {
				c := kinds[path]
				switch x.Type {
				case gjson.String:
					c[0]++
					v.sample(path, x.Str, words)
				case gjson.Number:
					c[1]++
					if fd := v.byName[path]; fd != nil && len(fd.Numbers) < maxWords {
						fd.Numbers = append(fd.Numbers, x.Raw)
					}
				default:
					c[2]++
				}
				kinds[path] = c
			})
			return true
		})
	}
	for _, fd := range v.Fields {
		c := kinds[fd.Name]
		switch {
		case snapshot.IsDateMember(fd.Name):
			fd.Kind = Date
		case c[0] > 0:
			fd.Kind = Text
		case c[1] > 0:
			fd.Kind = Number
		default:
			fd.Kind = Bool
		}
		for w := range words[fd.Name] {
			fd.Words = append(fd.Words, w)
		}
		sort.Strings(fd.Words)
		switch {
		case fd.Kind != Text:
			v.Typed = append(v.Typed, fd)
		default:
			if len(fd.Terms) > 0 {
				v.Text = append(v.Text, fd)
			}
			if len(fd.Exact) > 0 {
				v.Exact = append(v.Exact, fd)
			}
		}
	}
	return v
}

// sample records words and token runs of one string value of path.
func (v *Vocab) sample(path, s string, words map[string]map[string]bool) {
	fd := v.byName[path]
	if fd == nil {
		return
	}
	if strings.HasPrefix(path, "Data.") {
		s = analysis.StripHTML(s)
	}
	ws := words[path]
	if ws == nil {
		ws = map[string]bool{}
		words[path] = ws
	}
	for _, w := range strings.Fields(s) {
		if len(ws) < maxWords {
			ws[w] = true
		}
	}
	if len(fd.Runs) < maxRuns {
		toks := analysis.Standard(nil, s)
		if len(toks) > 40 {
			toks = toks[:40]
		}
		run := make([]string, len(toks))
		for i, t := range toks {
			run[i] = strings.Clone(t.Term)
		}
		if len(run) > 1 {
			fd.Runs = append(fd.Runs, run)
		}
	}
}

// collect calls fn for every scalar below v with its dotted path, as the snapshot
// writer flattens items (arrays are values of the same path; null is nothing).
func collect(path string, v gjson.Result, fn func(string, gjson.Result)) {
	switch {
	case v.IsObject():
		v.ForEach(func(k, c gjson.Result) bool {
			collect(path+"."+k.Str, c, fn)
			return true
		})
	case v.IsArray():
		v.ForEach(func(_, c gjson.Result) bool {
			collect(path, c, fn)
			return true
		})
	case v.Type != gjson.Null:
		fn(path, v)
	}
}
