package buildflow

import "testing"

// TestDefaultGrid: build searches the wide grid below 10,000 training rows
// (the 75 % of the rows the default holdout leaves) and the one for large
// data (protocol.LargeGrid) from there.
func TestDefaultGrid(t *testing.T) {
	for _, tc := range []struct {
		rows    int
		holdout float64
		want    string
	}{
		{699, 0.25, "wide"},
		{13_332, 0.25, "wide"},
		{13_334, 0.25, "large"},
		{20_000, 0.25, "large"},
		{20_000, 0.6, "wide"},
		{30_000, 0.25, "large"},
	} {
		if got := DefaultGrid(trainingRows(tc.rows, tc.holdout)); got != tc.want {
			t.Errorf("%d rows, holdout %g: grid %s, want %s", tc.rows, tc.holdout, got, tc.want)
		}
	}
}
