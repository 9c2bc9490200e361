package content

import (
	"strings"

	"github.com/cdaedge/cdaedge/snapshot"
)

// Fields is the Schema of one snapshot. It caches what it learns about the snapshot's
// own fields only (a bounded set: names no item has are not kept), so one can serve
// every request on its snapshot; it is not safe for concurrent use.
type Fields struct {
	snap *snapshot.Snapshot
	// types are FieldType's answers, by the field's index in the snapshot, each with
	// typeKnown set once computed: a slice, not a map by name, because a query over
	// every field asks for every field's type, and the TinyGo module's maps are slow.
	types []FieldType
	names []string
	text  []string
	vals  []snapshot.Value
}

// NewFields returns the Schema of snap.
func NewFields(snap *snapshot.Snapshot) *Fields {
	return &Fields{snap: snap}
}

// TopLevel returns the canonical spelling of a top-level member, matched
// case-insensitively: a documented member, or any other top-level member an item of the
// environment has (D6).
func (s *Fields) TopLevel(name string) (string, bool) {
	for _, m := range snapshot.DocumentedMembers[:] {
		if strings.EqualFold(m, name) {
			return m, true
		}
	}
	for _, f := range s.FieldNames() {
		top, _, _ := strings.Cut(f, ".")
		if strings.EqualFold(top, name) {
			return top, true
		}
	}
	return "", false
}

// FieldType reports the kinds of value a field holds, without scanning the items in
// the common cases: strings are known from the dictionaries, numbers and booleans from
// the first value or the precomputed sort orders. A Data field that mixes strings with
// numbers is taken as text.
func (s *Fields) FieldType(name string) FieldType {
	f := s.snap.Field(name)
	if f == nil {
		return 0
	}
	if s.types == nil {
		s.types = make([]FieldType, len(s.FieldNames()))
	}
	if t := s.types[f.Index()]; t&typeKnown != 0 {
		return t &^ typeKnown
	}
	var t FieldType
	if snapshot.IsDateMember(name) {
		t |= TypeDate
	} else if f.Text().Len() > 0 || f.Keyword().Len() > 0 {
		t |= TypeText
	}
	switch {
	case !f.HasValues() || snapshot.IsDateMember(name):
	case f.Keyword().Len() == 0:
		// No strings: the first value found tells numbers from booleans.
		n := s.snap.Len()
		for doc := 0; doc < n && t&(TypeNumber|TypeBool) == 0; doc++ {
			t |= s.kinds(f, doc)
		}
	case f.HasSortOrders():
		// Strings too: the precomputed orders put numbers first and booleans last
		// (D12), so the first item of each order tells whether there are any.
		t |= s.kinds(f, f.SortedDoc(0, false)) | s.kinds(f, f.SortedDoc(0, true))
	}
	s.types[f.Index()] = t | typeKnown
	return t
}

// typeKnown marks a computed answer in Fields.types; no FieldType has it.
const typeKnown FieldType = 1 << 7

// kinds returns the number and boolean kinds among doc's values of f.
func (s *Fields) kinds(f *snapshot.Field, doc int) FieldType {
	var t FieldType
	if doc < 0 {
		return 0
	}
	s.vals = f.Values(s.vals[:0], doc)
	for _, v := range s.vals {
		switch v.Kind {
		case snapshot.KindNumber:
			t |= TypeNumber
		case snapshot.KindBool:
			t |= TypeBool
		}
	}
	return t
}

// SortField resolves a search sort key (D6, D12): a top-level member, case-insensitively,
// or a Data path; a field that no item has is unknown.
func (s *Fields) SortField(name string) (string, bool) {
	field, ok := dataPath(name)
	if !ok {
		canonical, known := s.TopLevel(name)
		if !known || canonical == "Data" {
			return "", false
		}
		field = canonical
	}
	f := s.snap.Field(field)
	if f == nil || !f.HasValues() {
		return "", false
	}
	return field, true
}

// FieldNames lists the environment's indexed fields.
func (s *Fields) FieldNames() []string {
	if s.names == nil {
		s.names = s.snap.FieldNames()
	}
	return s.names
}

// TextFields lists the fields that hold text (FieldType has TypeText), sorted: what a
// full-text query over every field ("*") searches. The list is computed once; callers
// must not modify it.
func (s *Fields) TextFields() []string {
	if s.text == nil {
		text := []string{}
		for _, f := range s.FieldNames() {
			if s.FieldType(f)&TypeText != 0 {
				text = append(text, f)
			}
		}
		s.text = text[:len(text):len(text)]
	}
	return s.text
}
