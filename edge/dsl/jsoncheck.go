package dsl

import (
	"strconv"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonr"
)

// checkJSON validates s as one JSON value (RFC 8259, UTF-8) and returns nil or an
// invalid_json Error whose Offset is the byte where the text stops being JSON (D8).
// Nesting deeper than maxDepth is a too_complex error (D11).
func checkJSON(s string, maxDepth int) *edge.Error {
	if skipJSONSpace(s) == len(s) {
		return &edge.Error{Code: edge.CodeInvalidJSON, Offset: len(s),
			Message: "invalid JSON at byte offset " + strconv.Itoa(len(s)) + ": the body is empty"}
	}
	e := jsonr.Check(s, jsonr.CheckOptions{MaxDepth: maxDepth, UTF8: true})
	switch {
	case e == nil:
		return nil
	case e.TooDeep:
		return &edge.Error{Code: edge.CodeTooComplex, Offset: e.Offset, Err: e,
			Message: "the body nests JSON deeper than " + strconv.Itoa(maxDepth) + " levels (limit: nesting depth)"}
	}
	return &edge.Error{Code: edge.CodeInvalidJSON, Offset: e.Offset, Message: e.Error(), Err: e}
}

func skipJSONSpace(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
