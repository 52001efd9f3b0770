package dataset

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSampleIndices(t *testing.T) {
	// 1,000 rows grouped by class as the collection's folds list them: 10
	// classes of 100 rows each.
	grouped := make([]int, 1000)
	for i := range grouped {
		grouped[i] = i
	}
	classOf := func(i int) int { return i / 100 }
	for _, tc := range []struct {
		name string
		idx  []int
		n    int
	}{
		{"fewer rows than n", []int{3, 1, 2}, 5},
		{"as many rows as n", []int{3, 1, 2}, 3},
		{"a sample of grouped rows", grouped, 200},
		{"a sample of one", grouped, 1},
		{"none", grouped, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SampleIndices(tc.idx, tc.n, 7)
			if len(tc.idx) <= tc.n {
				if diff := cmp.Diff(tc.idx, got); diff != "" {
					t.Fatalf("not idx itself (-want +got)\n%s", diff)
				}
				return
			}
			if len(got) != tc.n || !slices.IsSorted(got) {
				t.Fatalf("got %d indices (sorted %v), want %d in increasing order", len(got), slices.IsSorted(got), tc.n)
			}
			for i, v := range got {
				if !slices.Contains(tc.idx, v) || (i > 0 && got[i-1] == v) {
					t.Fatalf("index %d: %d is not a distinct entry of idx", i, v)
				}
			}
			if diff := cmp.Diff(got, SampleIndices(tc.idx, tc.n, 7)); diff != "" {
				t.Errorf("the same seed gave another sample (-first +second)\n%s", diff)
			}
			if tc.n >= 100 {
				classes := map[int]bool{}
				for _, v := range got {
					classes[classOf(v)] = true
				}
				if len(classes) != 10 {
					t.Errorf("the sample of %d holds %d of the 10 classes: a prefix, not a sample", tc.n, len(classes))
				}
			}
		})
	}
}
