package dsl

import (
	"strconv"

	"github.com/cdaedge/cdaedge/edge/jsonr"
)

// checkJSON validates s as one JSON value (RFC 8259, UTF-8) and returns nil or an
// invalid_json Error whose Offset is the byte where the text stops being JSON (D8).
// Nesting deeper than maxDepth is a too_complex error (D11).
func checkJSON(s string, maxDepth int) *Error {
	if skipJSONSpace(s) == len(s) {
		return &Error{Code: CodeInvalidJSON, Offset: len(s),
			Message: "invalid JSON at byte offset " + strconv.Itoa(len(s)) + ": the body is empty"}
	}
	e := jsonr.Check(s, jsonr.CheckOptions{MaxDepth: maxDepth, UTF8: true})
	switch {
	case e == nil:
		return nil
	case e.TooDeep:
		return &Error{Code: CodeTooComplex, Offset: e.Offset,
			Message: "the body nests JSON deeper than " + strconv.Itoa(maxDepth) + " levels (limit: nesting depth)"}
	}
	return &Error{Code: CodeInvalidJSON, Offset: e.Offset, Message: e.Error()}
}

func skipJSONSpace(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
