package difftest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Oracle is the Java program (java/LuceneOracle.java) with its index of an
// environment's items, answering queries over a pipe.
type Oracle struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// Hit is one Lucene hit: the document (the snapshot's item number) and its score.
type Hit struct {
	Doc   int
	Score float32
}

// LuceneAnswer is Lucene's answer to one query: every hit best first (ties by
// document number), and the query as Lucene printed it; or an error.
type LuceneAnswer struct {
	Total int
	Query string
	Hits  []Hit
	Err   string
	// Explain holds Lucene's explanations of the documents the request listed in
	// "explain" (for debugging).
	Explain []string
}

// StartOracle starts `java -cp classpath LuceneOracle itemsPath`; it indexes the items
// before it reads the first query.
func StartOracle(java, classpath, itemsPath string) (*Oracle, error) {
	// A fixed tests.seed fixes Lucene's hash seed (StringHelper), and with it the order
	// in which BooleanQuery's rewrite visits equal clauses: without it, the one shape
	// whose answer depends on that order (see the package doc) changes between runs.
	cmd := exec.Command(java, "-Xss16m", "-Dtests.seed=C0FFEE", "-cp", classpath, "LuceneOracle", itemsPath)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", java, err)
	}
	return &Oracle{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

// Run sends the requests (one JSON object each) and returns Lucene's answers in order.
// Requests are written while answers are read, so that neither pipe fills up.
func (o *Oracle) Run(reqs []json.RawMessage) ([]LuceneAnswer, error) {
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(o.in)
		for _, r := range reqs {
			w.Write(r)
			w.WriteByte('\n')
		}
		werr <- w.Flush()
	}()
	answers := make([]LuceneAnswer, len(reqs))
	for i := range reqs {
		line, err := o.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("read answer %d of %d: %w", i+1, len(reqs), err)
		}
		var raw struct {
			Total   int       `json:"total"`
			LQ      string    `json:"lq"`
			Hits    []float64 `json:"hits"`
			Error   string    `json:"error"`
			Explain []string  `json:"explain"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, fmt.Errorf("answer %d: %w", i+1, err)
		}
		a := LuceneAnswer{Total: raw.Total, Query: raw.LQ, Err: raw.Error, Explain: raw.Explain}
		for j := 0; j+1 < len(raw.Hits); j += 2 {
			a.Hits = append(a.Hits, Hit{Doc: int(raw.Hits[j]), Score: float32(raw.Hits[j+1])})
		}
		answers[i] = a
	}
	if err := <-werr; err != nil {
		return nil, fmt.Errorf("write queries: %w", err)
	}
	return answers, nil
}

// Close ends the Java program.
func (o *Oracle) Close() error {
	o.in.Close()
	return o.cmd.Wait()
}
