package flow

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/power"
)

func TestSplitRoundTrips(t *testing.T) {
	src := []byte("kind,x,y\nb,0.1,1e-300\na,2,3\nb,\"4\",-5.5\na,6,7\nc d,8,9\nc d,1.0000000000000002,11\n")
	dir := t.TempDir()
	o := Options{Data: "in.csv", LabelColumn: "kind", Holdout: 0.5}
	tp, hp := filepath.Join(dir, "t.csv"), filepath.Join(dir, "h.csv")
	if err := writeSplit(o, src, tp, hp); err != nil {
		t.Fatal(err)
	}
	orig, err := dataset.ReadCSV(bytes.NewReader(src), "in.csv", dataset.CSVOptions{LabelColumn: "kind"})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, p := range []string{tp, hp} {
		d, err := dataset.LoadCSV(p, dataset.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(orig.FeatureNames, d.FeatureNames); diff != "" {
			t.Errorf("%s features (-want +got)\n%s", p, diff)
		}
		for r := 0; r < d.M(); r++ {
			row := d.Row(r)
			rows = append(rows, rowKey(d.ClassNames[d.Y[r]], row))
		}
	}
	var want []string
	for r := 0; r < orig.M(); r++ {
		want = append(want, rowKey(orig.ClassNames[orig.Y[r]], orig.Row(r)))
	}
	slices.Sort(want)
	slices.Sort(rows)
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows of the two files (-want +got)\n%s", diff)
	}
}

// rowKey is a row's label and exact values, for comparing row sets.
func rowKey(label string, v []float64) string {
	k := label
	for _, x := range v {
		k += " " + strconv.FormatUint(math.Float64bits(x), 16)
	}
	return k
}

func TestReadScore(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.txt")
	os.WriteFile(p, []byte("accuracy 0.7500 (3/4)\ntrue \\ predicted a b\n"), 0o644)
	s, err := readScore(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Score{Accuracy: 0.75, Correct: 3, Total: 4, Matrix: "true \\ predicted a b\n"}, s); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	os.WriteFile(p, []byte("setosa\n"), 0o644)
	if _, err := readScore(p); err == nil {
		t.Error("readScore accepted a prediction list")
	}
}

func TestQuoteArgs(t *testing.T) {
	got := quoteArgs([]string{"train", "--data", "my data.csv", "--label-column", "it's", "-o", "m.json"})
	want := `train --data 'my data.csv' --label-column 'it'\''s' -o m.json`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestChoose(t *testing.T) {
	cand := func(p, luts int, latUS, nJ float64) Candidate {
		var e power.Estimate
		e.Resources.LUTs, e.LatencyS, e.BudgetedJ = luts, latUS*1e-6, nJ*1e-9
		return Candidate{P: p, Estimate: e}
	}
	cands := func() []Candidate {
		return []Candidate{cand(1, 100, 5, 10), cand(2, 180, 2.6, 7), cand(4, 300, 1.4, 6), cand(8, 560, 0.8, 6.5)}
	}
	tests := []struct {
		name     string
		o        Options
		want     int // index; -1: error
		feasible []bool
	}{
		{"latency", Options{LatencyS: 2e-6}, 2, []bool{false, false, true, true}},
		{"latency exact", Options{LatencyS: 2.6e-6}, 1, []bool{false, true, true, true}},
		{"luts", Options{MaxLUTs: 200}, 0, []bool{true, true, false, false}},
		{"budget", Options{BudgetJ: 6.2e-9}, 2, []bool{false, false, true, false}},
		{"all", Options{LatencyS: 3e-6, MaxLUTs: 400, BudgetJ: 7.5e-9}, 1, []bool{false, true, true, false}},
		{"none", Options{LatencyS: 1e-6, MaxLUTs: 400}, -1, []bool{false, false, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cands()
			got, err := Choose(c, tc.o)
			if tc.want < 0 {
				if err == nil || !strings.Contains(err.Error(), "no P meets latency ≤ 1 µs, ≤ 400 LUTs") {
					t.Errorf("err = %v", err)
				}
			} else if err != nil || got != tc.want {
				t.Errorf("Choose = %d, %v; want %d", got, err, tc.want)
			}
			var feas []bool
			for _, x := range c {
				feas = append(feas, x.Feasible)
			}
			if diff := cmp.Diff(tc.feasible, feas); diff != "" {
				t.Errorf("feasible (-want +got)\n%s", diff)
			}
		})
	}
}

func TestCandidatePs(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []int
	}{{1, []int{1}}, {2, []int{1, 2}}, {50, []int{1, 2, 4, 8, 16, 32, 50}}, {64, []int{1, 2, 4, 8, 16, 32, 64}}} {
		if diff := cmp.Diff(tc.want, candidatePs(tc.n)); diff != "" {
			t.Errorf("N=%d (-want +got)\n%s", tc.n, diff)
		}
	}
}

func TestHTML(t *testing.T) {
	md := "# Title <x>\n\nA `code` and **bold** line.\n\n| a | b |\n| --- | ---: |\n| x & y | 1 |\n\n```\nraw <b>\n```\n\n![alt](c.svg)\n\n- one\n- two\n"
	want := "<h1>Title &lt;x&gt;</h1>\n" +
		"<p>A <code>code</code> and <strong>bold</strong> line.</p>\n" +
		"<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>x &amp; y</td><td class=\"r\">1</td></tr>\n</table>\n" +
		"<pre>raw &lt;b&gt;\n</pre>\n" +
		"<p><img src=\"c.svg\" alt=\"alt\"></p>\n" +
		"<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n</body></html>\n"
	got := HTML(md)
	_, body, _ := strings.Cut(got, "</style></head><body>\n")
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
