package edgetest

import (
	"fmt"

	"github.com/cdaedge/cdaedge/builder/ingest"
)

// buildSnapshot is the one place that calls the builder, so that a change of its API
// touches one function.
func buildSnapshot(env string, preview bool, paths ...string) (snap []byte, warnings []string, err error) {
	snap, problems, err := ingest.BuildFiles(ingest.Options{Environment: env, Preview: preview}, paths...)
	if err != nil {
		return nil, nil, err
	}
	if len(snap) == 0 {
		return nil, nil, fmt.Errorf("the builder returned an empty snapshot")
	}
	for _, p := range problems {
		warnings = append(warnings, p.String())
	}
	return snap, warnings, nil
}
