package dsl

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
)

// AppendScore appends a relevance score as Elasticsearch prints a hit's _score: a Java
// float (Float.toString: the shortest digits that read back as the float32, plain
// with at least one fractional digit for 1e-3 <= |f| < 1e7, else "1.0E7" style).
func AppendScore(dst []byte, f float64) []byte {
	f32 := float32(f)
	switch {
	case math.IsNaN(f) || math.IsInf(float64(f32), 0):
		return append(dst, "null"...)
	case f32 == 0:
		return append(dst, "0.0"...)
	}
	abs := math.Abs(float64(f32))
	if abs >= 1e-3 && abs < 1e7 {
		start := len(dst)
		dst = strconv.AppendFloat(dst, float64(f32), 'f', -1, 32)
		if bytes.IndexByte(dst[start:], '.') < 0 { // no string(...): TinyGo would copy it
			dst = append(dst, ".0"...)
		}
		return dst
	}
	s := strconv.FormatFloat(float64(f32), 'e', -1, 32)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	dst = append(dst, mant...)
	dst = append(dst, 'E')
	if exp[0] == '-' {
		dst = append(dst, '-')
	}
	return append(dst, strings.TrimLeft(exp[1:], "0")...)
}

// AppendHighlight appends a hit's highlight member value as Elasticsearch shapes it:
// {"<field>":["fragment",...],...}.
func AppendHighlight(dst []byte, fields []query.HighlightResult) []byte {
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.String(dst, f.Field)
		dst = append(dst, ":["...)
		for j, frag := range f.Fragments {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = jsonw.String(dst, frag)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}
