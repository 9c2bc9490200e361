package edgetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
)

// isESAnswer reports whether resp comes from one of the Elasticsearch-compatible
// routes, which mark every answer with X-Elastic-Product and answer in
// Elasticsearch's shapes rather than the envelope of D8.
func isESAnswer(resp *edge.Response) bool {
	v, ok := header(resp.Headers, "X-Elastic-Product")
	return ok && v == "Elasticsearch"
}

// checkESResponse checks an answer of the Elasticsearch-compatible routes against
// case c: compact JSON (D2) in the JSON content type; an error is exactly
// {"error":{"root_cause":[{"type","reason"}],"type","reason"},"status":N} with N the
// HTTP status, and c's code is its error.type; c's totalItems is hits.total.value (or
// _count's count) and c's ids the hits' _id, in order.
func checkESResponse(c Case, resp *edge.Response) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	e := c.Expect
	if resp.Status == 204 || resp.Status == 304 || (resp.Status == 200 && len(resp.Body) == 0 && c.Request.Method == "HEAD") {
		return problems
	}
	if ct, _ := header(resp.Headers, "Content-Type"); ct != ContentType {
		fail("Content-Type %q, want %q", ct, ContentType)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, resp.Body); err != nil || !bytes.Equal(compact.Bytes(), resp.Body) {
		fail("body is not compact JSON (D2)")
	}
	var body struct {
		Error *struct {
			RootCause []struct {
				Type   string `json:"type"`
				Reason string `json:"reason"`
			} `json:"root_cause"`
			Type   string `json:"type"`
			Reason string `json:"reason"`
		} `json:"error"`
		Status *int `json:"status"`
		Count  *int `json:"count"`
		Hits   *struct {
			Total json.RawMessage `json:"total"`
			Hits  []struct {
				ID string `json:"_id"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		return append(problems, fmt.Sprintf("body is not a JSON object: %v", err))
	}
	if resp.Status >= 400 {
		members, _ := topLevelMembers(resp.Body)
		if !slices.Equal(names(members), []string{"error", "status"}) {
			fail("error body members %v, want [error status]", names(members))
		}
		switch {
		case body.Status == nil || *body.Status != resp.Status:
			fail("body status differs from the HTTP status %d", resp.Status)
		case body.Error == nil || body.Error.Type == "" || body.Error.Reason == "" || len(body.Error.RootCause) != 1 ||
			body.Error.RootCause[0].Type != body.Error.Type || body.Error.RootCause[0].Reason != body.Error.Reason:
			fail("error %s, want {\"root_cause\":[{\"type\",\"reason\"}],\"type\",\"reason\"}", clip(resp.Body))
		case e.Code != "" && body.Error.Type != e.Code:
			fail("error type %q, want %q", body.Error.Type, e.Code)
		}
		return problems
	}
	if e.Code != "" {
		fail("no error, want type %q", e.Code)
	}
	if e.TotalItems != nil {
		switch {
		case body.Count != nil:
			if *body.Count != *e.TotalItems {
				fail("count %d, want %d", *body.Count, *e.TotalItems)
			}
		case body.Hits == nil:
			fail("no hits, want a total of %d", *e.TotalItems)
		default:
			// hits.total is {"value":N,"relation":"eq"}, or N with rest_total_hits_as_int.
			var total struct {
				Value int `json:"value"`
			}
			if err := json.Unmarshal(body.Hits.Total, &total.Value); err != nil {
				_ = json.Unmarshal(body.Hits.Total, &total)
			}
			if total.Value != *e.TotalItems {
				fail("hits.total %s, want %d", body.Hits.Total, *e.TotalItems)
			}
		}
	}
	if e.IDs != nil {
		if body.Hits == nil {
			fail("no hits, want ids")
		} else {
			ids := []string{}
			for _, h := range body.Hits.Hits {
				ids = append(ids, h.ID)
			}
			if !slices.Equal(ids, *e.IDs) {
				fail("ids differ\n got: %s\nwant: %s", strings.Join(ids, " "), strings.Join(*e.IDs, " "))
			}
		}
	}
	return problems
}
