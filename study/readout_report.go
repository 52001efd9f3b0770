package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/svgplot"
	"github.com/hdlgen/hdlgen/model"
)

// ReadoutSummary is readout-summary.json: the mean curves of Fig. 6.
type ReadoutSummary struct {
	Provenance
	Reused   int `json:"reused_datasets"`
	Datasets int `json:"datasets"`
	// Regularizers are the ridge penalties of the datasets' float readouts (one,
	// unless results of different accuracy studies were mixed).
	Regularizers []model.Regularizer `json:"regularizers"`
	Bounds       []int               `json:"bounds"`
	Float        float64             `json:"float"`
	Round        []float64           `json:"round"`
	// The GA fields are absent when the study ran without the GA.
	FloatGA   float64   `json:"float_ga_seeds,omitempty"`
	RoundGA   []float64 `json:"round_ga_seeds,omitempty"`
	GARounded []float64 `json:"ga_rounded,omitempty"`
	GARandom  []float64 `json:"ga_random,omitempty"`
	Seeds     []uint64  `json:"seeds"`
	GASeeds   []uint64  `json:"ga_seeds"`
	GA        any       `json:"ga_options,omitempty"`
	MaxGARows int       `json:"max_ga_rows,omitempty"`
	Skipped   []Skipped `json:"skipped"`
}

// WriteReadoutReport writes readout.tsv, readout-summary.{json,md} and
// fig6-readout.svg into dir.
func WriteReadoutReport(dir string, s *ReadoutStudy, command string, now time.Time) (*ReadoutSummary, error) {
	o := s.Options
	nb := len(o.Bounds)
	sum := &ReadoutSummary{Provenance: newProvenance(command, now, s.WallSeconds),
		Reused: s.Reused, Datasets: len(s.Results), Bounds: o.Bounds,
		Round: make([]float64, nb), Seeds: o.Seeds, GASeeds: o.GASeeds, GA: o.GA, MaxGARows: o.MaxGARows, Skipped: s.Skipped}
	ga := !o.NoGA
	if ga {
		sum.RoundGA, sum.GARounded, sum.GARandom = make([]float64, nb), make([]float64, nb), make([]float64, nb)
	} else {
		sum.GA, sum.MaxGARows = nil, 0
	}
	for _, r := range s.Results {
		if !slices.Contains(sum.Regularizers, r.Regularizer) {
			sum.Regularizers = append(sum.Regularizers, r.Regularizer)
		}
	}
	var tsv bytes.Buffer
	tsv.WriteString("dataset\tn\tlambda\tkappa\tga_rows\tfloat")
	kinds := []string{"round", "ga_rounded", "ga_random"}
	if !ga {
		kinds = kinds[:1]
	}
	for _, kind := range kinds {
		for _, b := range o.Bounds {
			fmt.Fprintf(&tsv, "\t%s_B%d", kind, b)
		}
	}
	tsv.WriteString("\tseconds\n")
	for _, r := range s.Results {
		sum.Float += r.Float
		sum.FloatGA += r.FloatGA
		fmt.Fprintf(&tsv, "%s\t%d\t%g\t%d\t%d\t%.4f", r.Dataset, r.Config.N, r.Config.Lambda, r.Config.Kappa, r.GARows, r.Float)
		for _, v := range [][]float64{r.Round, r.GARounded, r.GARandom} {
			for _, a := range v {
				fmt.Fprintf(&tsv, "\t%.4f", a)
			}
		}
		fmt.Fprintf(&tsv, "\t%.1f\n", r.Seconds)
		for bi := 0; bi < nb; bi++ {
			sum.Round[bi] += r.Round[bi]
			if !ga {
				continue
			}
			sum.RoundGA[bi] += r.RoundGA[bi]
			sum.GARounded[bi] += r.GARounded[bi]
			sum.GARandom[bi] += r.GARandom[bi]
		}
	}
	if n := float64(len(s.Results)); n > 0 {
		sum.Float /= n
		sum.FloatGA /= n
		for bi := 0; bi < nb; bi++ {
			sum.Round[bi] /= n
			if !ga {
				continue
			}
			sum.RoundGA[bi] /= n
			sum.GARounded[bi] /= n
			sum.GARandom[bi] /= n
		}
	}
	js, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	xs := make([]float64, nb)
	for i, b := range o.Bounds {
		xs[i] = float64(b)
	}
	lo := 1.0
	for _, v := range [][]float64{sum.Round, sum.GARounded, sum.GARandom} {
		for _, a := range v {
			lo = min(lo, a)
		}
	}
	series := []svgplot.Series{{Name: "rounded ridge solution", X: xs, Y: sum.Round}}
	if ga {
		series = append(series,
			svgplot.Series{Name: "GA seeded with the rounded solution", X: xs, Y: sum.GARounded},
			svgplot.Series{Name: "GA with random initialisation", X: xs, Y: sum.GARandom})
	}
	svg := svgplot.Lines(fmt.Sprintf("Integer readout: mean accuracy over %d datasets (paper Fig. 6)", len(s.Results)),
		svgplot.Axis{Label: "positive bound B of the readout levels −B…B", Min: float64(o.Bounds[0]), Max: float64(o.Bounds[nb-1])},
		svgplot.Axis{Label: "mean accuracy", Min: max(0, float64(int(lo*10))/10), Max: 1},
		series,
		[]svgplot.Reference{{Name: fmt.Sprintf("float readout (%.4f)", sum.Float), Y: sum.Float}})
	files := map[string][]byte{
		"readout.tsv":          tsv.Bytes(),
		"readout-summary.json": append(js, '\n'),
		"readout-summary.md":   []byte(sum.markdown() + jobs.RunLogMarkdown(dir)),
		"fig6-readout.svg":     svg,
	}
	for name, data := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

func (s *ReadoutSummary) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Integer readout study (paper Section IV-B, Fig. 6)\n\n")
	b.WriteString(s.Provenance.markdown(s.Reused, "datasets"))
	ga := len(s.GASeeds) > 0
	if ga {
		fmt.Fprintf(&b, "- datasets: %d (each with its best intRVFL N, λ, κ from the accuracy study); float and rounded readouts over seeds %v, GA strategies over seeds %v; GA fitness on at most %d training rows\n",
			s.Datasets, s.Seeds, s.GASeeds, s.MaxGARows)
	} else {
		fmt.Fprintf(&b, "- datasets: %d (each with its best intRVFL N, λ, κ from the accuracy study); float and rounded readouts over seeds %v; no GA (--readout-ga=false)\n",
			s.Datasets, s.Seeds)
	}
	fmt.Fprintf(&b, "- ridge penalty of the float readout (from the accuracy study): %v\n", s.Regularizers)
	if ga {
		fmt.Fprintf(&b, "- float readout: %.4f (over the GA seeds: %.4f)\n\n", s.Float, s.FloatGA)
		b.WriteString("| B | levels | bits | rounded | rounded (GA seeds) | GA from rounded | GA from random |\n|---|---|---|---|---|---|---|\n")
	} else {
		fmt.Fprintf(&b, "- float readout: %.4f\n\n", s.Float)
		b.WriteString("| B | levels | bits | rounded |\n|---|---|---|---|\n")
	}
	for i, bound := range s.Bounds {
		bits := 1
		for (1<<(bits-1))-1 < bound {
			bits++
		}
		if ga {
			fmt.Fprintf(&b, "| %d | %d | %d | %.4f | %.4f | %.4f | %.4f |\n", bound, 2*bound+1, bits, s.Round[i], s.RoundGA[i], s.GARounded[i], s.GARandom[i])
		} else {
			fmt.Fprintf(&b, "| %d | %d | %d | %.4f |\n", bound, 2*bound+1, bits, s.Round[i])
		}
	}
	for i, bound := range s.Bounds {
		if bound == 15 {
			fmt.Fprintf(&b, "\n5-bit readout (B = 15): rounded %.4f vs float %.4f: difference %.2f percentage points.\n",
				s.Round[i], s.Float, 100*(s.Round[i]-s.Float))
		}
	}
	return b.String()
}
