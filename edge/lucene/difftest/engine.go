package difftest

import (
	"encoding/json"
	"fmt"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/snapshot"
)

// newSearcher returns a function that POSTs a body to the search endpoint of snap's
// environment (sub is "" for the search itself, "/_validate/query" for its
// explanation; rawQuery the URL query), in process, through the project's request
// router, with no work budget. It is the only code of the harness that names the
// router's API.
func newSearcher(snap *snapshot.Snapshot) func(sub, rawQuery string, body []byte) (status int, answer []byte) {
	r := router.New(router.Options{MaxSteps: -1})
	r.Load(snap)
	path := "/cda/es/v1/" + snap.Environment()
	return func(sub, rawQuery string, body []byte) (int, []byte) {
		resp := r.Serve(&edge.Request{Method: "POST", Path: path + sub, RawQuery: rawQuery, Body: body})
		return resp.Status, resp.Body
	}
}

// Engine runs searches through the engine.
type Engine struct {
	search func(sub, rawQuery string, body []byte) (int, []byte)
}

// NewEngine returns an Engine over env's snapshot.
func NewEngine(env *Env) *Engine { return &Engine{search: newSearcher(env.Snap)} }

// Answer is the engine's answer to one search: the hits in its order, or an error.
type Answer struct {
	Total int
	IDs   []string // ContentIDs best first (every hit: the harness asks for all)
	Err   string   // non-empty when the engine refused the search
}

// maxHits is the most hits one search lists (index.max_result_window, D7).
const maxHits = 10000

// Search sends the query (a search DSL query object) with the largest size and _source
// off, so that the answer lists every hit (of up to maxHits) by ContentID in ranking
// order.
func (e *Engine) Search(query json.RawMessage) Answer {
	a := e.Page(query, 0, maxHits)
	if a.Err == "" && a.Total != len(a.IDs) {
		a.Err = fmt.Sprintf("totalItems %d but %d items listed", a.Total, len(a.IDs))
	}
	return a
}

// Page sends the query for the page of size hits from from, as a client paging
// through the results would: the engine then ranks by its top-k path, which prunes
// the items that cannot reach the page, where a listing of every hit prunes nothing.
func (e *Engine) Page(query json.RawMessage, from, size int) Answer {
	body, _ := json.Marshal(map[string]any{"query": query, "from": from, "size": size, "_source": false})
	status, out := e.search("", "", body)
	var resp struct {
		Status int `json:"status"`
		Data   []struct {
			ContentID string `json:"ContentID"`
		} `json:"data"`
		TotalItems int `json:"totalItems"`
		Error      *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return Answer{Err: fmt.Sprintf("status %d, unreadable answer: %v", status, err)}
	}
	if status != 200 || resp.Error != nil {
		msg := fmt.Sprintf("status %d", status)
		if resp.Error != nil {
			msg += " " + resp.Error.Code + ": " + resp.Error.Message
		}
		return Answer{Err: msg}
	}
	a := Answer{Total: resp.TotalItems, IDs: make([]string, len(resp.Data))}
	for i, d := range resp.Data {
		a.IDs[i] = d.ContentID
	}
	return a
}

// Explain returns the engine's _validate/query explanation of the query in Lucene's
// notation (for reports), or the error.
func (e *Engine) Explain(query json.RawMessage) string {
	body, _ := json.Marshal(map[string]any{"query": query})
	_, out := e.search("/_validate/query", "explain=true", body)
	var resp struct {
		Explanation string `json:"explanation"`
		Error       string `json:"error"`
	}
	if json.Unmarshal(out, &resp) != nil {
		return string(out)
	}
	if resp.Explanation == "" {
		return "invalid: " + resp.Error
	}
	return resp.Explanation
}
