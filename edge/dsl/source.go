package dsl

import (
	"slices"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/snapshot"
)

// SourceFilter is a decoded _source: which members of each item to return. Patterns
// are dotted paths with * wildcards that match any run of characters (dots included),
// as Elasticsearch's source filtering does; a pattern naming an object keeps all of it.
//
// ContentID is always kept: in Elasticsearch a hit's _id lives outside _source, and
// ContentID plays that role in our envelope (API.md D10).
type SourceFilter struct {
	// None is _source: false (only ContentID is kept).
	None     bool
	Includes []string
	Excludes []string
}

type gstate struct{ pat, pos int }

type globSet []string

func (g globSet) start() []gstate {
	var st []gstate
	for i, p := range g {
		for _, pos := range globStart(p) {
			st = append(st, gstate{i, pos})
		}
	}
	return st
}

// step returns the states st moves to on byte c.
func (g globSet) step(st []gstate, c byte) []gstate { return g.stepInto(nil, st, c) }

// stepString returns the states st moves to on the bytes of s. The sets between bytes
// live in the two buffers of scratch, and the result is copied out only when it is not
// empty: a member name that no pattern follows (most of an item's, under an includes
// list) costs no allocation, where a set per byte made a page of filtered items
// allocate thousands of times.
func (g globSet) stepString(st []gstate, s string, scratch *[2][]gstate) []gstate {
	if len(s) == 0 || len(st) == 0 {
		return st
	}
	cur := st
	for i := 0; i < len(s) && len(cur) > 0; i++ {
		scratch[i%2] = g.stepInto(scratch[i%2][:0], cur, s[i])
		cur = scratch[i%2]
	}
	if len(cur) == 0 {
		return nil
	}
	return append([]gstate(nil), cur...)
}

// stepInto appends to dst (empty) the states st moves to on byte c, closed under a
// '*' matching nothing, without duplicates.
func (g globSet) stepInto(dst, st []gstate, c byte) []gstate {
	for _, s := range st {
		p := g[s.pat]
		switch {
		case s.pos >= len(p):
		case p[s.pos] == '*':
			dst = addGlobState(dst, p, s)
		case p[s.pos] == c:
			dst = addGlobState(dst, p, gstate{s.pat, s.pos + 1})
		}
	}
	return dst
}

// addGlobState adds s to the set dst, and the states after each '*' that follows it
// (a '*' may match nothing).
func addGlobState(dst []gstate, p string, s gstate) []gstate {
	for {
		if !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
		if s.pos >= len(p) || p[s.pos] != '*' {
			return dst
		}
		s.pos++
	}
}

func (g globSet) accepts(st []gstate) bool {
	for _, s := range st {
		if s.pos == len(g[s.pat]) {
			return true
		}
	}
	return false
}

// Append appends item (a stored compact JSON object) filtered by f, copying the stored
// bytes of every kept member (values are never re-encoded). dataEnd, when not 0, is
// where item's member Data ends (snapshot.Snapshot.DataEnd): a filter that keeps Data
// whole or leaves it out then steps over it instead of scanning it.
func (f *SourceFilter) Append(dst []byte, item string, dataEnd int) []byte {
	if f == nil {
		return append(dst, item...)
	}
	w := &sourceWalk{f: f, inc: globSet(f.Includes), exc: globSet(f.Excludes)}
	var incSt []gstate
	incAll := len(f.Includes) == 0 && !f.None
	if !incAll {
		incSt = w.inc.start()
	}
	dst, _ = w.object(dst, jsonr.Parse(item), dataEnd, incSt, incAll, w.exc.start(), true, 0)
	return dst
}

// maxSourceDepth bounds the walk's recursion: no stored item nests deeper (the
// builder refuses it).
const maxSourceDepth = snapshot.MaxItemDepth

// sourceWalk is one item's walk through a SourceFilter: the include and exclude
// patterns, and the scratch sets of their automata.
type sourceWalk struct {
	f        *SourceFilter
	inc, exc globSet
	scratch  [2][]gstate
}

// appendMember appends the member k: v as stored.
func appendMember(dst []byte, k, v jsonr.Result) []byte {
	dst = append(dst, k.Raw...)
	dst = append(dst, ':')
	return append(dst, v.Raw...)
}

// object appends the kept members of obj; wrote reports whether any member was kept.
// dataEnd, when not 0, is where obj's member Data ends. The includes automaton is at
// incSt (incAll: everything below is included), the excludes one at excSt.
func (w *sourceWalk) object(dst []byte, obj jsonr.Result, dataEnd int, incSt []gstate, incAll bool,
	excSt []gstate, top bool, depth int) ([]byte, bool) {
	inc, exc := w.inc, w.exc
	dst = append(dst, '{')
	n := 0
	var it jsonr.Members
	for it.ResetKnown(obj, "Data", dataEnd); it.Next(); {
		k, v := it.Key, it.Value
		key := k.Str
		start := len(dst)
		if n > 0 {
			dst = append(dst, ',')
		}
		if top && key == "ContentID" {
			dst, n = appendMember(dst, k, v), n+1
			continue
		}
		if w.f.None {
			dst = dst[:start]
			continue
		}
		is, accepted := incSt, incAll
		if !incAll {
			is = inc.stepString(incSt, key, &w.scratch)
			if len(is) == 0 {
				dst = dst[:start]
				continue
			}
			accepted = inc.accepts(is)
		}
		es := exc.stepString(excSt, key, &w.scratch)
		if exc.accepts(es) {
			dst = dst[:start]
			continue
		}
		esDot := exc.step(es, '.')
		if accepted && len(esDot) == 0 || depth >= maxSourceDepth {
			if accepted {
				dst, n = appendMember(dst, k, v), n+1
			} else {
				dst = dst[:start]
			}
			continue
		}
		subAll := incAll || accepted
		var subInc []gstate
		if !subAll {
			subInc = inc.step(is, '.')
		}
		var wrote bool
		switch {
		case v.IsObject():
			if !subAll && len(subInc) == 0 {
				dst = dst[:start]
				continue
			}
			dst = append(append(dst, k.Raw...), ':')
			dst, wrote = w.object(dst, v, 0, subInc, subAll, esDot, false, depth+1)
		case v.IsArray():
			dst = append(append(dst, k.Raw...), ':')
			dst, wrote = w.array(dst, v, is, subInc, subAll, accepted, es, esDot, depth+1)
		default:
			if accepted {
				dst, n = appendMember(dst, k, v), n+1
			} else {
				dst = dst[:start]
			}
			continue
		}
		if !wrote && !accepted {
			dst = dst[:start]
			continue
		}
		n++
	}
	return append(dst, '}'), n > 0
}

// array appends the kept elements of arr: objects filtered below the array's path,
// scalars only when the path itself is included.
func (w *sourceWalk) array(dst []byte, arr jsonr.Result, is, subInc []gstate, subAll, accepted bool,
	es, esDot []gstate, depth int) ([]byte, bool) {
	dst = append(dst, '[')
	n := 0
	var it jsonr.Members
	for it.Reset(arr); it.Next(); {
		v := it.Value
		start := len(dst)
		if n > 0 {
			dst = append(dst, ',')
		}
		var wrote bool
		switch {
		case depth >= maxSourceDepth:
			if accepted {
				dst = append(dst, v.Raw...)
				wrote = true
			}
		case v.IsObject():
			if !subAll && len(subInc) == 0 {
				break
			}
			dst, wrote = w.object(dst, v, 0, subInc, subAll, esDot, false, depth+1)
		case v.IsArray():
			dst, wrote = w.array(dst, v, is, subInc, subAll, accepted, es, esDot, depth+1)
		default:
			if accepted {
				dst = append(dst, v.Raw...)
				wrote = true
			}
		}
		if !wrote {
			dst = dst[:start]
			continue
		}
		n++
	}
	return append(dst, ']'), n > 0
}

// parseSource decodes _source: true, false, a pattern, an array of patterns, or
// {"includes": ..., "excludes": ...} (also the singular include/exclude).
func parseSource(v jsonr.Result, path string) (*SourceFilter, error) {
	switch {
	case v.Type == jsonr.True:
		return nil, nil
	case v.Type == jsonr.False:
		return &SourceFilter{None: true}, nil
	case v.Type == jsonr.String || v.IsArray():
		inc, err := patternList(v, path)
		if err != nil {
			return nil, err
		}
		return &SourceFilter{Includes: inc}, nil
	case v.IsObject():
		f := &SourceFilter{}
		var err error
		v.ForEach(func(k, val jsonr.Result) bool {
			p := join(path, k.Str)
			switch k.Str {
			case "includes", "include":
				f.Includes, err = patternList(val, p)
			case "excludes", "exclude":
				f.Excludes, err = patternList(val, p)
			default:
				err = errorf(edge.CodeInvalidQuery, path, "unknown _source member ["+edge.Clip(k.Str)+"]; use includes and excludes")
			}
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		if len(f.Includes) == 0 && len(f.Excludes) == 0 {
			return nil, nil
		}
		return f, nil
	}
	return nil, wrongType(path, "true, false, a field pattern, an array of patterns or {\"includes\":[...],\"excludes\":[...]}", v)
}

const maxSourcePatterns = 256

func patternList(v jsonr.Result, path string) ([]string, error) {
	if v.Type == jsonr.String {
		return []string{v.Str}, nil
	}
	if !v.IsArray() {
		return nil, wrongType(path, "a field pattern or an array of patterns", v)
	}
	var out []string
	var err error
	i := 0
	v.ForEach(func(_, p jsonr.Result) bool {
		if p.Type != jsonr.String {
			err = wrongType(index(path, i), "a field pattern", p)
			return false
		}
		if len(out) >= maxSourcePatterns {
			err = errorf(edge.CodeTooComplex, path, "more than 256 _source patterns")
			return false
		}
		out = append(out, p.Str)
		i++
		return true
	})
	return out, err
}

// splitList splits a comma-separated URL parameter value, dropping empty parts.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
