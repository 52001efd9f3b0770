package study

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/protocol"
)

// An interrupted first run has no dataset with every network: the report must
// still be written (valid JSON, no NaN) and say how to resume.
func TestWriteAccuracyReportWithNoFinishedDataset(t *testing.T) {
	dir := t.TempDir()
	s := &AccuracyStudy{Skipped: []Skipped{{Dataset: "miniboone", Reason: "data file missing"}},
		Results: []*RunResult{{Dataset: "iris", Network: protocol.IntRVFL, Search: &protocol.SearchResult{}, Eval: &protocol.EvalResult{Mean: 0.9}}}}
	sum, err := WriteAccuracyReport(dir, s, []protocol.Network{protocol.IntRVFL, protocol.RVFL}, "test", time.Now())
	if err != nil {
		t.Fatalf("report of an interrupted study: %v", err)
	}
	if sum.Datasets != 0 || len(sum.Incomplete) != 1 {
		t.Errorf("datasets %d, incomplete %v; want 0 and [iris]", sum.Datasets, sum.Incomplete)
	}
	js, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back AccuracySummary
	if err := json.Unmarshal(js, &back); err != nil {
		t.Errorf("summary.json does not parse: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "rerun the command to resume") {
		t.Errorf("summary.md does not say how to resume:\n%s", md)
	}
}
