package nativepool

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
)

// An answer's body is the caller's: the router that lent it answering again (the pool
// has one idle router here) leaves it as it was, and a body handed back is reused.
func TestAnswersOwnTheirBodies(t *testing.T) {
	snap, err := snapshot.Open(testsnap.Build(t, testsnap.Env, 12))
	if err != nil {
		t.Fatal(err)
	}
	testsnap.CheckAnswersOwnTheirBodies(t, New([]*snapshot.Snapshot{snap}, router.Options{}))
}
