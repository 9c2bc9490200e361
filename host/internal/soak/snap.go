package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/edge/graphql"
	"github.com/cdaedge/cdaedge/snapshot"
)

// env is the environment the soak serves.
const env = "soak"

var words = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike " +
	"november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu coffee espresso " +
	"harbour mountain river garden winter summer lantern copper meadow")

// buildVersion returns a snapshot whose every item carries version v: in its Name
// ("v<v> item <i>") and in Data.version, so that an answer mixing two versions shows.
func buildVersion(items, v int) []byte {
	w, err := snapshot.NewWriter(env, false)
	if err != nil {
		panic(err)
	}
	w.Derive(graphql.ShapesSection, graphql.DeriveShapes) // as the builder does
	for i := range items {
		var body strings.Builder
		for j := range 60 + i%40 {
			body.WriteString(words[(i*7+j*13+v)%len(words)])
			body.WriteByte(' ')
		}
		item := fmt.Sprintf(`{"ContentID":"Content_00000000-0000-4000-8000-%012d","Name":"v%d item %d %s",`+
			`"Status":"Published","TemplateName":"%s","TemplateID":"Template_00000000-0000-4000-8000-00000000000%d",`+
			`"CreatedBy":"ann","CreatedAt":"2021-04-%02dT10:00:00.000Z","UpdatedBy":"bob","UpdatedAt":"2021-05-01T10:00:00.000Z",`+
			`"PublishedBy":"cat","PublishedAt":"2021-05-02T10:00:00.000Z",`+
			`"Data":{"version":%d,"rank":%d,"category":"c%d","body":"<p>%s</p>"}}`,
			i+1, v, i+1, words[i%len(words)], []string{"Page", "Article", "Faq"}[i%3], i%3+1, i%28+1,
			v, i, i%50, body.String())
		if err := w.Add([]byte(item)); err != nil {
			panic(err)
		}
	}
	b, err := w.Bytes()
	if err != nil {
		panic(err)
	}
	return b
}

// startSwapper replaces the snapshot every period with the next version (written to a
// temporary name and renamed over, the documented way) until ctx ends, and sends the
// number of replacements.
func startSwapper(ctx context.Context, path string, items int, period time.Duration, rec *recorder) <-chan int {
	done := make(chan int, 1)
	go func() {
		swaps := 0
		defer func() { done <- swaps }()
		t := time.NewTicker(period)
		defer t.Stop()
		for v := 2; ; v++ {
			data := buildVersion(items, v)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			tmp := filepath.Join(filepath.Dir(path), ".next.tmp")
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				rec.note("write snapshot: " + err.Error())
				continue
			}
			if err := os.Rename(tmp, path); err != nil {
				rec.note("rename snapshot: " + err.Error())
				continue
			}
			rec.wrote(v)
			swaps++
		}
	}()
	return done
}
