package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMergeSearches feeds search merge's reader arbitrary shard documents,
// seeded with the three shards of a small search and damaged copies: a
// document is decoded as search merge decodes it (unknown fields refused),
// checked, and merged with the other two shards. Nothing may panic (issue
// 26, item 6: a count array without a κ row panicked), and a merge that
// succeeds covers the whole grid exactly once.
//
//	go test -run '^$' -fuzz FuzzMergeSearches -fuzztime 5m ./protocol/
func FuzzMergeSearches(f *testing.F) {
	shards := fuzzShards(f)
	for _, s := range shards {
		f.Add(s)
		f.Add(bytes.Replace(s, []byte(`"correct":[[`), []byte(`"correct":[[[0]],[`), 1))
		f.Add(bytes.Replace(s, []byte(`"count":3`), []byte(`"count":2`), 1))
		f.Add(bytes.Replace(s, []byte(`"index":`), []byte(`"index":-`), 1))
	}
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		r, err := ReadShard(doc)
		if err != nil {
			return
		}
		parts := []*SearchResult{r}
		for _, s := range shards[1:] {
			p := new(SearchResult)
			if err := json.Unmarshal(s, p); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		m, err := MergeSearches(parts)
		if err != nil {
			return
		}
		if len(m.Grid.Ns) != len(m.Correct[0]) {
			t.Fatalf("merged %d values of N with counts for %d", len(m.Grid.Ns), len(m.Correct[0]))
		}
	})
}

// fuzzShards returns the three shards (i/3) of an intRVFL search on a small
// synthetic split, as search --shard writes them.
func fuzzShards(f testing.TB) [][]byte {
	f.Helper()
	g := Grid{Ns: []int{10, 20, 30}, Lambdas: []float64{0.25, 1}, Kappas: []int{1, 3}}
	var out [][]byte
	for i, n := range g.Ns {
		r := &SearchResult{Dataset: "toy", Network: IntRVFL, Grid: Grid{Ns: []int{n}, Lambdas: g.Lambdas, Kappas: g.Kappas},
			Best:    Best{N: n, Lambda: 1, Kappa: 3, Correct: 5, ValRows: 8},
			Correct: [][][]int{{{i, 5}}, {{4, 5}}},
			Shard:   &ShardInfo{Index: i, Count: 3, Ns: g.Ns, Seed: 1, Regularizer: "variance", Data: "ab"}}
		b, err := json.Marshal(r)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	var parts []*SearchResult
	for _, b := range out {
		p := new(SearchResult)
		if err := json.Unmarshal(b, p); err != nil {
			f.Fatal(err)
		}
		parts = append(parts, p)
	}
	if _, err := MergeSearches(parts); err != nil {
		f.Fatalf("the seed shards do not merge: %v", err)
	}
	return out
}
