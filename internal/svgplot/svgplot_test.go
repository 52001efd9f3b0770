package svgplot

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return
			}
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
	}
}

func TestScatterDeterministicAndWellFormed(t *testing.T) {
	pts := []Point{{0.5, 0.6, "a<b"}, {0.9, 0.8, "c&d"}}
	a := Scatter("RVFL vs intRVFL", Axis{"RVFL", 0, 1}, Axis{"intRVFL", 0, 1}, pts, []string{"mean 0.70 vs 0.70"})
	b := Scatter("RVFL vs intRVFL", Axis{"RVFL", 0, 1}, Axis{"intRVFL", 0, 1}, pts, []string{"mean 0.70 vs 0.70"})
	if !bytes.Equal(a, b) {
		t.Fatal("same input, different bytes")
	}
	wellFormed(t, a)
	if got := strings.Count(string(a), "<circle"); got != 2 {
		t.Errorf("%d circles, want 2", got)
	}
	if !strings.Contains(string(a), "a&lt;b") {
		t.Error("labels are not escaped")
	}
}

func TestLines(t *testing.T) {
	svg := Lines("readout", Axis{"B", 1, 16}, Axis{"accuracy", 0, 1},
		[]Series{{"round", []float64{1, 2, 3}, []float64{0.5, 0.7, 0.8}}, {"ga", []float64{1, 2, 3}, []float64{0.6, 0.75, 0.8}}},
		[]Reference{{"float", 0.82}})
	wellFormed(t, svg)
	if got := strings.Count(string(svg), "<polyline"); got != 2 {
		t.Errorf("%d polylines, want 2", got)
	}
}

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0.962, 0.985, []string{"0.965", "0.970", "0.975", "0.980", "0.985"}},
		{0.2, 0.8, []string{"0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8"}},
		{0, 3150, []string{"0", "500", "1000", "1500", "2000", "2500", "3000"}},
	} {
		ticks, dec := NiceTicks(tc.lo, tc.hi, 5)
		var got []string
		for _, v := range ticks {
			got = append(got, strconv.FormatFloat(v, 'f', dec, 64))
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("NiceTicks(%g, %g) (-want +got):\n%s", tc.lo, tc.hi, diff)
		}
		seen := map[string]bool{}
		for _, s := range got {
			if seen[s] {
				t.Errorf("NiceTicks(%g, %g): %s twice", tc.lo, tc.hi, s)
			}
			seen[s] = true
		}
	}
}

func TestFront(t *testing.T) {
	got := front([]Point{{X: 3, Y: 0.9}, {X: 1, Y: 0.8}, {X: 2, Y: 0.7}, {X: 4, Y: 0.95}, {X: 5, Y: 0.9}})
	want := []Point{{X: 1, Y: 0.8}, {X: 3, Y: 0.9}, {X: 4, Y: 0.95}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("front (-want +got):\n%s", diff)
	}
}
