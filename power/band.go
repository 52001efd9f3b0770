package power

import (
	"fmt"
	"strings"

	"github.com/hdlgen/hdlgen/model"
)

// The measured error band of the analytic resource model: how far its counts
// were from Yosys's over the designs of the calibration's CalRange and
// CalRangeEdges sections, the range the build report reads estimates over. hwstudy.Bands computes
// the bands from the calibration's rows; measuredBands (band_table.go) is
// that computation over the committed results/hardware/calibration.json,
// written by `go test ./hwstudy -run TestBandTable -update` and checked by
// TestBandTable, so that no figure of it is typed by hand.

// BandPs group the designs into bands by P, each [lo, hi]; a band covers
// the P and N its designs span within its group.
var BandPs = [][2]int{{1, 4}, {8, 32}, {33, 256}, {257, 1 << 30}}

// ResourceError is the relative error (analytic − Yosys)/Yosys of one
// resource over a band's designs, in per cent.
type ResourceError struct {
	Resource  string  `json:"resource"`
	MedianPct float64 `json:"median_abs_pct"` // median of |error|
	WorstPct  float64 `json:"worst_pct"`      // the error of largest magnitude, signed
}

// Band is the measured error of one network type's estimates over a range
// of N and P.
type Band struct {
	Arch    model.Arch      `json:"arch"`
	PMin    int             `json:"p_min"` // the P range: one of BandPs
	PMax    int             `json:"p_max"`
	NMin    int             `json:"n_min"` // the N range of its designs
	NMax    int             `json:"n_max"`
	Designs int             `json:"designs"`
	Errors  []ResourceError `json:"errors"` // LUT, FF, DSP48E1, BRAM36
	Runs    []BandRun       `json:"runs"`   // the calibration runs that synthesised its designs
}

// BandRun is a calibration command that synthesised designs of a band, and
// its date.
type BandRun struct {
	Command string `json:"command"`
	Date    string `json:"date"`
}

// Covers reports whether design d lies in the band's range.
func (b Band) Covers(d Design) bool {
	return d.Arch == b.Arch && d.P() >= b.PMin && d.P() <= b.PMax && d.N >= b.NMin && d.N <= b.NMax
}

// Error returns the band's error of resource name (LUT, FF, DSP48E1, BRAM36).
func (b Band) Error(name string) (ResourceError, bool) {
	for _, e := range b.Errors {
		if e.Resource == name {
			return e, true
		}
	}
	return ResourceError{}, false
}

// Text is the band as the report states it beside an estimate: the worst and
// median LUT and FF errors, the DSP48E1 and BRAM36 ones, and where and how
// they were measured.
func (b Band) Text() string {
	var parts []string
	for _, e := range b.Errors {
		if e.WorstPct == 0 {
			parts = append(parts, e.Resource+" exact")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s ±%.0f %% (median %.0f %%)", e.Resource, absf(e.WorstPct), e.MedianPct))
	}
	var runs []string
	for _, r := range b.Runs {
		runs = append(runs, fmt.Sprintf("`%s` on %s", r.Command, r.Date))
	}
	return fmt.Sprintf("error band %s, measured against Yosys on %d designs over N %d…%d, P %d…%d by %s",
		strings.Join(parts, ", "), b.Designs, b.NMin, b.NMax, b.PMin, b.PMax, strings.Join(runs, " and "))
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// BandOf returns the measured band that covers design d, if any.
func BandOf(d Design) (Band, bool) {
	for _, b := range measuredBands {
		if b.Covers(d) {
			return b, true
		}
	}
	return Band{}, false
}

// MeasuredPMax is the largest P at which arch's estimate was measured
// against Yosys (the largest P of its bands), 0 when it has no band.
func MeasuredPMax(arch model.Arch) int {
	pmax := 0
	for _, b := range Bands(arch) {
		pmax = max(pmax, b.PMax)
	}
	return pmax
}

// Bands returns the measured bands of arch, in P order.
func Bands(arch model.Arch) []Band {
	var out []Band
	for _, b := range measuredBands {
		if b.Arch == arch {
			out = append(out, b)
		}
	}
	return out
}
