//go:build !wasm

package snapshot

// An item's canonical form: its members in the order of API.md D2, without
// insignificant whitespace, every object checked for a member named twice.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Canonicalize returns item as compact JSON with its members in the order of API.md
// D2, along with its ContentID and Status. Values keep their exact source text (numbers
// are not re-formatted, strings keep their escapes); only whitespace is dropped.
func Canonicalize(item []byte) (canon []byte, id, status string, err error) {
	if !gjson.ValidBytes(item) {
		return nil, "", "", fmt.Errorf("invalid JSON")
	}
	root := gjson.Parse(bytesView(item))
	if !root.IsObject() {
		return nil, "", "", fmt.Errorf("item must be a JSON object")
	}
	if err := checkMembers(root, "", 1); err != nil {
		return nil, "", "", err
	}
	idv := root.Get("ContentID")
	if idv.Type != gjson.String || idv.Str == "" {
		return nil, "", "", fmt.Errorf("/ContentID: required, a non-empty string")
	}
	// The item is parsed in place, so strings read from it are views of the caller's
	// buffer, which the caller may reuse: clone what outlives this call.
	st := root.Get("Status")
	return canonicalForm(root, len(item)), strings.Clone(idv.Str), strings.Clone(st.Str), nil
}

// canonicalForm returns the object root, of size bytes, with its members in the order
// of API.md D2 and without insignificant whitespace.
func canonicalForm(root gjson.Result, size int) []byte {
	out, _, _ := canonicalFormOf(root, size)
	return out
}

// canonicalFormOf is canonicalForm, which also returns the object's ContentID and
// Status members (as root.Get finds them: the first of each name), read on the same
// pass over the members.
func canonicalFormOf(root gjson.Result, size int) (out []byte, id, status gjson.Result) {
	type member struct{ key, value string }
	var documented [len(DocumentedMembers)]member
	var present [len(DocumentedMembers)]bool
	var others []member
	root.ForEach(func(k, v gjson.Result) bool {
		m := member{key: k.Raw, value: v.Raw}
		for i, name := range DocumentedMembers[:] {
			if k.Str == name {
				switch {
				case name == "ContentID" && !present[i]:
					id = v
				case name == "Status" && !present[i]:
					status = v
				}
				documented[i], present[i] = m, true
				return true
			}
		}
		others = append(others, m)
		return true
	})
	out = make([]byte, 0, size)
	out = append(out, '{')
	emit := func(m member) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, m.key...)
		out = append(out, ':')
		out = appendCompact(out, m.value)
	}
	for i, m := range documented {
		if present[i] {
			emit(m)
		}
	}
	for _, m := range others {
		emit(m)
	}
	return append(out, '}'), id, status
}

// appendCompact appends JSON text without insignificant whitespace. It copies runs at
// a time: up to the next quote or whitespace outside strings, and each string whole,
// found by its closing quote (strings are most of an item's bytes, and IndexByte finds
// a quote many bytes at a time, where a loop over every byte was 4 % of a build).
func appendCompact(dst []byte, raw string) []byte {
	for raw != "" {
		i := 0
		for i < len(raw) && !compactStop[raw[i]] {
			i++
		}
		dst = append(dst, raw[:i]...)
		if raw = raw[i:]; raw == "" {
			break
		}
		if raw[0] != '"' {
			raw = raw[1:] // whitespace
			continue
		}
		end := stringEnd(raw)
		dst = append(dst, raw[:end]...)
		raw = raw[end:]
	}
	return dst
}

// compactStop marks the bytes appendCompact stops at outside strings: a quote and
// JSON's whitespace.
var compactStop = [256]bool{'"': true, ' ': true, '\t': true, '\n': true, '\r': true}

// stringEnd returns the length of the JSON string that raw starts with, its quotes
// included: up to the first quote after the opening one that an even number of
// backslashes precedes, or all of raw when the string is not closed.
func stringEnd(raw string) int {
	for at := 1; ; {
		q := strings.IndexByte(raw[at:], '"')
		if q < 0 {
			return len(raw)
		}
		at += q
		backslashes := 0
		for backslashes < at-1 && raw[at-1-backslashes] == '\\' {
			backslashes++
		}
		at++
		if backslashes%2 == 0 {
			return at
		}
	}
}

// checkMembers refuses an object, at any depth of v, that names a member twice, and
// objects and arrays nested more than MaxItemDepth levels (v, at level level, counts);
// the error gives the JSON pointer of the second member, or of the value too deep.
// The pointer of where it is looking is built only when there is an error to report.
func checkMembers(v gjson.Result, pointer string, level int) error {
	var err error
	if level > MaxItemDepth && (v.IsObject() || v.IsArray()) {
		return errors.New(pointer + ": nests objects and arrays more than " + strconv.Itoa(MaxItemDepth) + " levels deep (the most an item may)")
	}
	switch {
	case v.IsObject():
		var small [16]string // most objects are small: a linear scan, no map
		seen := small[:0]
		var many map[string]struct{}
		v.ForEach(func(k, child gjson.Result) bool {
			dup := false
			if many != nil {
				_, dup = many[k.Str]
			} else {
				dup = slices.Contains(seen, k.Str)
			}
			if dup {
				err = errors.New(pointer + "/" + k.Str + ": duplicate member")
				return false
			}
			if many == nil && len(seen) == len(small) {
				many = make(map[string]struct{}, 2*len(small))
				for _, s := range seen {
					many[s] = struct{}{}
				}
			}
			if many != nil {
				many[k.Str] = struct{}{}
			} else {
				seen = append(seen, k.Str)
			}
			if child.IsObject() || child.IsArray() {
				if err = checkMembers(child, "", level+1); err != nil {
					err = prefixPointer(err, pointer+"/"+k.Str)
				}
			}
			return err == nil
		})
	case v.IsArray():
		i := 0
		v.ForEach(func(_, child gjson.Result) bool {
			if child.IsObject() || child.IsArray() {
				if err = checkMembers(child, "", level+1); err != nil {
					err = prefixPointer(err, pointer+"/"+strconv.Itoa(i))
				}
			}
			i++
			return err == nil
		})
	}
	return err
}

// prefixPointer puts prefix in front of err's message, the JSON pointer of a duplicate
// member found in a child (checked with the pointer "").
func prefixPointer(err error, prefix string) error { return errors.New(prefix + err.Error()) }
