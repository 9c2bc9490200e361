package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

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
