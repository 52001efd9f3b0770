package svgplot

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
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
