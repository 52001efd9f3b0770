package hwstudy

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

var updateBands = flag.Bool("update", false, "rewrite power/band_table.go from results/hardware/calibration.json")

func committedCalibration(t *testing.T) *Calibration {
	t.Helper()
	b, err := os.ReadFile("../results/hardware/calibration.json")
	if err != nil {
		t.Fatalf("%v (run: hdlgen power calibrate --out results/hardware)", err)
	}
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("calibration.json: %v", err)
	}
	return &c
}

// TestBandTable checks power/band_table.go, the error bands the build report
// states, against the bands measured from the committed calibration's rows
// (and the bands the calibration itself records): no figure of it is typed
// by hand. -update writes it.
func TestBandTable(t *testing.T) {
	c := committedCalibration(t)
	if diff := cmp.Diff(c.MeasureBands(), c.Bands); diff != "" {
		t.Errorf("calibration.json's bands differ from its rows (-rows +bands):\n%s", diff)
	}
	src, err := c.BandTable()
	if err != nil {
		t.Fatal(err)
	}
	const path = "../power/band_table.go"
	if *updateBands {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(src), string(got)); diff != "" {
		t.Errorf("power/band_table.go is not the committed calibration's bands; run go test ./hwstudy -run TestBandTable -update (-want +file):\n%s", diff)
	}
	// What power serves is those bands.
	var served []power.Band
	for _, arch := range power.Networks() {
		served = append(served, power.Bands(arch)...)
	}
	if diff := cmp.Diff(c.MeasureBands(), served); diff != "" {
		t.Errorf("power.Bands (-measured +served):\n%s", diff)
	}
}

// TestBandsOfRows: the band of a P range holds its designs' median |error|
// and signed worst error, and its N range.
func TestBandsOfRows(t *testing.T) {
	var rows []CalibrationRow
	for _, s := range shapesOf(power.CalibrationSection(power.CalRange)) {
		if s.Arch != model.IntRVFL || s.P > 4 {
			continue
		}
		d := power.Design{Shape: power.Shape{Arch: s.Arch, K: s.K, L: s.L, Kappa: s.Kappa, Bits: s.Bits}, N: s.N, Options: plan.Options{Parallel: s.P}}
		a, err := power.Analytic(d)
		if err != nil {
			t.Fatal(err)
		}
		y := a
		y.LUTs = a.LUTs * 4 / 5 // the model 25 % over
		rows = append(rows, CalibrationRow{Name: s.Name(), Seed: 1, Design: d, Yosys: y, Analytic: a})
	}
	rows[0].Yosys.LUTs = rows[0].Analytic.LUTs * 2 // one design 50 % under
	c := &Calibration{Command: "hdlgen power calibrate", Date: "2026-11-28", Rows: rows}
	bands := c.MeasureBands()
	if len(bands) != 1 {
		t.Fatalf("bands %+v, want one (intrvfl, P 1…4)", bands)
	}
	b := bands[0]
	lut, _ := b.Error("LUT")
	ff, _ := b.Error("FF")
	if b.PMin != 1 || b.PMax != 4 || b.Designs != len(rows) || lut.WorstPct != -50 || lut.MedianPct < 24.9 || lut.MedianPct > 25.1 || ff.WorstPct != 0 {
		t.Errorf("band %+v", b)
	}
	if txt := b.Text(); !strings.Contains(txt, "LUT ±50 % (median 25 %)") || !strings.Contains(txt, "FF exact") || !strings.Contains(txt, "`hdlgen power calibrate` on 2026-11-28") {
		t.Errorf("band text %q", txt)
	}
}

// TestFitRowsHoldOutRangeEdges: the LUT factors are fitted to every row but
// those of the held-out sections (range-edges); the error bands read both
// range sections.
func TestFitRowsHoldOutRangeEdges(t *testing.T) {
	rangeShape := shapesOf(power.CalibrationSection(power.CalRange))[0]
	edgeShape := shapesOf(power.CalibrationSection(power.CalRangeEdges))[0]
	baseShape := shapesOf(power.CalibrationSection(power.CalBase))[0]
	c := &Calibration{Rows: []CalibrationRow{{Name: baseShape.Name(), Seed: 1}, {Name: rangeShape.Name(), Seed: 1}, {Name: edgeShape.Name(), Seed: 1}, {Name: rowName(baseShape, 2), Seed: 2}}}
	var got []string
	for _, r := range c.FitRows() {
		got = append(got, r.Name)
	}
	want := []string{baseShape.Name(), rangeShape.Name(), rowName(baseShape, 2)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FitRows (-want +got):\n%s", diff)
	}
}
