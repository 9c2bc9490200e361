//go:build !wasm

// Items prepared off the writer's goroutine: the builder's input reader puts each item
// in canonical form on the core that checked it, instead of the writer doing it for all
// of them when it encodes.

package snapshot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// PreparedItem is an item made ready for Writer.AddPrepared by PrepareValidated: its
// ContentID, its Status and its canonical JSON, or why it cannot be added.
type PreparedItem struct {
	id, status string
	json       []byte
	err        error
}

// PrepareValidated does for an item what AddValidated does before adding it
// (reading its ContentID and Status) and what Encode would do later (putting it in
// canonical form), without touching a writer: the builder's input reader calls it on
// every core as items are read, so that the writer's goroutine only records them and
// the item is held once, in canonical form. item is not kept; the result is the same
// snapshot as AddValidated's. It is safe to call from several goroutines.
func PrepareValidated(item []byte) PreparedItem {
	canon, idv, st := canonicalFormOf(gjson.Parse(bytesView(item)), len(item))
	if idv.Type != gjson.String || idv.Str == "" {
		return PreparedItem{err: fmt.Errorf("/ContentID: required, a non-empty string")}
	}
	if cap(canon)-len(canon) > cap(canon)/8 {
		canon = slices.Clip(slices.Clone(canon)) // do not hold the input's whitespace
	}
	return PreparedItem{id: strings.Clone(idv.Str), status: strings.Clone(st.Str), json: canon}
}

// AddPrepared adds an item prepared by PrepareValidated, as AddValidated would have
// added it: same checks, same errors.
func (w *Writer) AddPrepared(p PreparedItem) error {
	if p.err != nil {
		return p.err
	}
	return w.add(pendingItem{id: p.id, json: p.json}, p.status)
}

// canonicalizeAll puts the items added with AddValidated in canonical form, on every
// core.
func canonicalizeAll(items []pendingItem) {
	const chunk = 256
	forEachIndex((len(items)+chunk-1)/chunk, func(c int) {
		for i := c * chunk; i < min(len(items), (c+1)*chunk); i++ {
			items[i].canonicalize()
		}
	})
}

// canonicalize puts an item added with AddValidated in canonical form; other items
// are in it already.
func (it *pendingItem) canonicalize() {
	if it.raw {
		it.json, it.raw = canonicalForm(gjson.Parse(bytesView(it.json)), len(it.json)), false
	}
}
