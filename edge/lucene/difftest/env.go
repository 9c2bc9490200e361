package difftest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/builder/ingest"
	"github.com/cdaedge/cdaedge/snapshot"
)

// EnvID is the environment id of the generated environment.
const EnvID = "lucene"

// Env is a generated environment: its snapshot, whose item numbers are the Lucene
// document numbers of the oracle's index.
type Env struct {
	Seed  uint64
	Items int // items generated (the snapshot holds the published ones)
	Snap  *snapshot.Snapshot
	Data  []byte // the snapshot file's bytes
}

// NewEnv generates items with the project's generator (deterministic for a seed) and
// builds their published-only snapshot with the project's builder.
func NewEnv(seed uint64, items int) (*Env, error) {
	var nd bytes.Buffer
	if err := gen.Generate(&nd, gen.Options{Items: items, Seed: seed, Environment: EnvID}); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	b, err := ingest.NewBuilder(ingest.Options{Environment: EnvID})
	if err != nil {
		return nil, err
	}
	if err := b.AddNDJSON("generated", &nd, int64(nd.Len())); err != nil {
		return nil, err
	}
	data, _, err := b.Finish()
	if err != nil {
		return nil, fmt.Errorf("build snapshot: %w", err)
	}
	snap, err := snapshot.Open(data)
	if err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	return &Env{Seed: seed, Items: items, Snap: snap, Data: data}, nil
}

// WriteItems writes the snapshot's items as NDJSON in item order: the oracle's input.
func (e *Env) WriteItems(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for i := 0; i < e.Snap.Len(); i++ {
		bw.WriteString(e.Snap.Item(i))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
