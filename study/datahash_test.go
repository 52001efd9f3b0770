package study

import (
	"encoding/hex"
	"testing"
)

// TestDataHashNamesTheAutoFillRule checks that the dataset hash of annealing,
// the one dataset whose test file the auto rule fills, differs from the hash
// of its files alone (so that its jobs stored before the rule run again),
// and that the other datasets' hashes are their files' (their jobs stay).
func TestDataHashNamesTheAutoFillRule(t *testing.T) {
	dir := collection(t)
	for _, tc := range []struct {
		name      string
		withRules bool
	}{
		{"annealing", true},
		{"image-segmentation", false}, // two files, mismatched, nothing constant
		{"iris", false},               // four folds
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DataHash(dir, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			h, _, err := hashFiles(dir, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			files := hex.EncodeToString(h.Sum(nil)[:16])
			if differs := got != files; differs != tc.withRules {
				t.Errorf("DataHash %s, its files' hash %s: differ = %v, want %v", got, files, differs, tc.withRules)
			}
		})
	}
}
