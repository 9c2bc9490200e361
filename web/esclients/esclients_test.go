// Package esclients runs the official Elasticsearch clients against the host's
// Elasticsearch-compatible routes (API.md, "Search: Elasticsearch-compatible routes"):
// the JavaScript clients @elastic/elasticsearch and @opensearch-project/opensearch in
// esclients.mjs (the exact versions of package-lock.json; go tool task
// tools:npm:esclients installs them, and this test runs npm ci when they are missing),
// and Go's github.com/elastic/go-elasticsearch/v8 (the version go.mod pins) here. Each
// is pointed at the search base path with no shim and no custom transport.
//
// Inputs, set by `go tool task test`:
//
//	CDA_HOST               the host binary to run (build/host, the module embedded);
//	                       else the test builds the host and runs its native engine
//	CDA_PARITY_REQUIRED=1  a missing node fails instead of skipping
package esclients

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
	"github.com/elastic/go-elasticsearch/v8"
)

func TestJavaScriptClients(t *testing.T) {
	node, dir := edgetest.NodePackage(t, "web/esclients")
	base := "http://" + edgetest.StartHost(t) + "/cda/es/v1"
	t.Logf("esclients.mjs:\n%s", edgetest.RunIn(t, dir, nil, node, "esclients.mjs", base))
}

// searchAnswer is the part of a search answer the Go checks read.
type searchAnswer struct {
	Hits struct {
		Total struct {
			Value    int    `json:"value"`
			Relation string `json:"relation"`
		} `json:"total"`
		Hits []struct {
			Index     string              `json:"_index"`
			ID        string              `json:"_id"`
			Score     *float64            `json:"_score"`
			Highlight map[string][]string `json:"highlight"`
		} `json:"hits"`
	} `json:"hits"`
	Aggregations map[string]struct {
		Buckets []struct {
			Key      string `json:"key"`
			DocCount int    `json:"doc_count"`
		} `json:"buckets"`
	} `json:"aggregations"`
	Error *struct {
		Type string `json:"type"`
	} `json:"error"`
	Status int `json:"status"`
}

func TestGoElasticsearch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the host")
	}
	es, err := elasticsearch.NewClient(elasticsearch.Config{Addresses: []string{"http://" + edgetest.StartHost(t) + "/cda/es/v1"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	decode := func(what string, status int, body interface{ Read([]byte) (int, error) }, v any) {
		t.Helper()
		if err := json.NewDecoder(body).Decode(v); err != nil {
			t.Fatalf("%s: status %d, body: %v", what, status, err)
		}
	}

	// The product check passes on the first answer, the info document.
	res, err := es.Info(es.Info.WithContext(ctx))
	if err != nil {
		t.Fatalf("info: %v", err)
	}
	var info struct {
		Version struct {
			Number      string `json:"number"`
			BuildFlavor string `json:"build_flavor"`
		} `json:"version"`
		Tagline string `json:"tagline"`
	}
	decode("info", res.StatusCode, res.Body, &info)
	res.Body.Close()
	if !strings.HasPrefix(info.Version.Number, "8.") || info.Version.BuildFlavor != "default" || info.Tagline != "You Know, for Search" {
		t.Errorf("info: %+v", info)
	}

	res, err = es.Search(es.Search.WithContext(ctx), es.Search.WithIndex(edgetest.DemoEnvironment),
		es.Search.WithBody(strings.NewReader(`{"query":{"match":{"Data.body":"espresso"}},"highlight":{"fields":{"Data.body":{}}},"aggs":{"t":{"terms":{"field":"TemplateName"}}}}`)))
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	var sr searchAnswer
	decode("search", res.StatusCode, res.Body, &sr)
	res.Body.Close()
	if res.IsError() || sr.Hits.Total.Value != 1 || sr.Hits.Total.Relation != "eq" || len(sr.Hits.Hits) != 1 {
		t.Fatalf("search: status %d, %+v", res.StatusCode, sr)
	}
	hit := sr.Hits.Hits[0]
	if hit.ID != "Content_1f75041c-8d56-4167-b5d0-5619e31144d6" || hit.Index != "demo" || hit.Score == nil || *hit.Score <= 0 ||
		len(hit.Highlight["Data.body"]) != 1 || !strings.Contains(hit.Highlight["Data.body"][0], "<em>espresso</em>") {
		t.Errorf("search hit: %+v", hit)
	}
	if b := sr.Aggregations["t"].Buckets; len(b) != 1 || b[0].Key != "Article" || b[0].DocCount != 1 {
		t.Errorf("search aggregations: %+v", sr.Aggregations)
	}

	res, err = es.Count(es.Count.WithContext(ctx), es.Count.WithIndex(edgetest.DemoEnvironment), es.Count.WithQuery("TemplateName:product"))
	if err != nil {
		t.Fatalf("count: %v", err)
	}
	var cr struct {
		Count int `json:"count"`
	}
	decode("count", res.StatusCode, res.Body, &cr)
	res.Body.Close()
	if res.IsError() || cr.Count != 7 {
		t.Errorf("count: status %d, %+v", res.StatusCode, cr)
	}

	res, err = es.Msearch(strings.NewReader("{\"index\":\"demo\"}\n{\"size\":0}\n{\"index\":\"nope\"}\n{}\n"), es.Msearch.WithContext(ctx))
	if err != nil {
		t.Fatalf("msearch: %v", err)
	}
	var mr struct {
		Responses []searchAnswer `json:"responses"`
	}
	decode("msearch", res.StatusCode, res.Body, &mr)
	res.Body.Close()
	if res.IsError() || len(mr.Responses) != 2 || mr.Responses[0].Hits.Total.Value != 35 || mr.Responses[0].Status != 200 ||
		mr.Responses[1].Error == nil || mr.Responses[1].Error.Type != "index_not_found_exception" || mr.Responses[1].Status != 404 {
		t.Errorf("msearch: status %d, %+v", res.StatusCode, mr)
	}

	// An error: the client returns the answer; its body is Elasticsearch's error object.
	res, err = es.Search(es.Search.WithContext(ctx), es.Search.WithIndex(edgetest.DemoEnvironment),
		es.Search.WithBody(strings.NewReader(`{"query":{"bogus":{}}}`)))
	if err != nil {
		t.Fatalf("search error: %v", err)
	}
	var er searchAnswer
	decode("search error", res.StatusCode, res.Body, &er)
	res.Body.Close()
	if !res.IsError() || res.StatusCode != 400 || er.Error == nil || er.Error.Type != "parsing_exception" || er.Status != 400 {
		t.Errorf("search error: status %d, %+v", res.StatusCode, er)
	}
}
