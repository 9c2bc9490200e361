package dsl

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonr"
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

func (g globSet) step(st []gstate, c byte) []gstate {
	var next []gstate
	for _, s := range st {
		for _, pos := range globStep(g[s.pat], []int{s.pos}, c) {
			n := gstate{s.pat, pos}
			dup := false
			for _, x := range next {
				if x == n {
					dup = true
					break
				}
			}
			if !dup {
				next = append(next, n)
			}
		}
	}
	return next
}

func (g globSet) stepString(st []gstate, s string) []gstate {
	for i := 0; i < len(s) && len(st) > 0; i++ {
		st = g.step(st, s[i])
	}
	return st
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
	inc, exc := globSet(f.Includes), globSet(f.Excludes)
	var incSt []gstate
	incAll := len(f.Includes) == 0 && !f.None
	if !incAll {
		incSt = inc.start()
	}
	dst, _ = f.object(dst, jsonr.Parse(item), dataEnd, inc, incSt, incAll, exc, exc.start(), true, 0)
	return dst
}

const maxSourceDepth = 64

// object appends the kept members of obj; wrote reports whether any member was kept.
// dataEnd, when not 0, is where obj's member Data ends.
func (f *SourceFilter) object(dst []byte, obj jsonr.Result, dataEnd int, inc globSet, incSt []gstate, incAll bool,
	exc globSet, excSt []gstate, top bool, depth int) ([]byte, bool) {
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
		keep := func() {
			dst = append(dst, k.Raw...)
			dst = append(dst, ':')
			dst = append(dst, v.Raw...)
			n++
		}
		if top && key == "ContentID" {
			keep()
			continue
		}
		if f.None {
			dst = dst[:start]
			continue
		}
		is, accepted := incSt, incAll
		if !incAll {
			is = inc.stepString(incSt, key)
			if len(is) == 0 {
				dst = dst[:start]
				continue
			}
			accepted = inc.accepts(is)
		}
		es := exc.stepString(excSt, key)
		if exc.accepts(es) {
			dst = dst[:start]
			continue
		}
		esDot := exc.step(es, '.')
		if accepted && len(esDot) == 0 || depth >= maxSourceDepth {
			if accepted {
				keep()
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
		switch {
		case v.IsObject():
			if !subAll && len(subInc) == 0 {
				dst = dst[:start]
				continue
			}
			dst = append(dst, k.Raw...)
			dst = append(dst, ':')
			var wrote bool
			dst, wrote = f.object(dst, v, 0, inc, subInc, subAll, exc, esDot, false, depth+1)
			if !wrote && !accepted {
				dst = dst[:start]
				continue
			}
			n++
		case v.IsArray():
			dst = append(dst, k.Raw...)
			dst = append(dst, ':')
			var wrote bool
			dst, wrote = f.array(dst, v, inc, is, subInc, subAll, accepted, exc, es, esDot, depth+1)
			if !wrote && !accepted {
				dst = dst[:start]
				continue
			}
			n++
		default:
			if accepted {
				keep()
			} else {
				dst = dst[:start]
			}
		}
	}
	return append(dst, '}'), n > 0
}

// array appends the kept elements of arr: objects filtered below the array's path,
// scalars only when the path itself is included.
func (f *SourceFilter) array(dst []byte, arr jsonr.Result, inc globSet, is, subInc []gstate, subAll, accepted bool,
	exc globSet, es, esDot []gstate, depth int) ([]byte, bool) {
	dst = append(dst, '[')
	n := 0
	arr.ForEach(func(_, v jsonr.Result) bool {
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
			dst, wrote = f.object(dst, v, 0, inc, subInc, subAll, exc, esDot, false, depth+1)
		case v.IsArray():
			dst, wrote = f.array(dst, v, inc, is, subInc, subAll, accepted, exc, es, esDot, depth+1)
		default:
			if accepted {
				dst = append(dst, v.Raw...)
				wrote = true
			}
		}
		if !wrote {
			dst = dst[:start]
			return true
		}
		n++
		return true
	})
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
