package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/internal/svgplot"
	"github.com/hdlgen/hdlgen/protocol"
)

// RaceMemberSummary is one member's means over the datasets where it had a
// configuration within the budget.
type RaceMemberSummary struct {
	Member   string  `json:"member"`
	Datasets int     `json:"datasets"`
	Accuracy float64 `json:"mean_accuracy"`
	LUTs     float64 `json:"mean_lut_eq"`
	Chosen   int     `json:"chosen"` // datasets the race gave it
	// Impossible counts the datasets where nothing fit the budget.
	Impossible int `json:"impossible"`
}

// RaceWidthSummary is one readout width's race over the datasets.
type RaceWidthSummary struct {
	Bits     int                 `json:"bits"`
	Datasets int                 `json:"datasets"`
	Accuracy float64             `json:"race_mean_accuracy"` // the chosen configurations'
	LUTs     float64             `json:"race_mean_lut_eq"`
	Members  []RaceMemberSummary `json:"members"`
	// Oracle is the mean of each dataset's best member by test accuracy: what a
	// perfect choice would reach (never reported as the race's result).
	Oracle float64 `json:"oracle_mean_accuracy"`
}

// RaceSummary is summary.json of the race.
type RaceSummary struct {
	Provenance
	Reused   int              `json:"reused_datasets"`
	Datasets int              `json:"datasets"`
	Budget   float64          `json:"budget_factor"`
	Ns       []int            `json:"ns"`
	MemberNs map[string][]int `json:"member_ns,omitempty"` // N beyond Ns of one member (RaceOptions.MemberNs)
	// Members names the race's members when they were given
	// (RaceOptions.Members); absent: RaceMembers.
	Members  []string           `json:"members,omitempty"`
	Grid     protocol.Grid      `json:"grid"`
	Seeds    []uint64           `json:"seeds"`
	TestNorm protocol.TestNorm  `json:"test_norm"`
	Widths   []RaceWidthSummary `json:"widths"`
	Skipped  []Skipped          `json:"skipped"`
}

// WriteRaceReport writes accuracy.tsv, summary.{json,md} and, per width,
// accuracy-vs-luts-<bits>bit.svg into dir.
func WriteRaceReport(dir string, s *RaceStudy, command string, now time.Time) (*RaceSummary, error) {
	o := s.Options
	sum := &RaceSummary{Provenance: newProvenance(command, now, s.WallSeconds), Reused: s.Reused, Datasets: len(s.Results),
		Budget: o.Budget, Ns: o.Ns, MemberNs: o.MemberNs, Grid: protocol.Grid{Lambdas: o.Grid.Lambdas, Kappas: o.Grid.Kappas}, Seeds: o.Seeds,
		TestNorm: o.TestNorm, Skipped: s.Skipped}
	for _, m := range o.Members {
		sum.Members = append(sum.Members, m.Name())
	}
	var tsv bytes.Buffer
	tsv.WriteString("dataset\tconfig\treadout_bits\taccuracy\tlut_eq\tchosen\n")
	files := map[string][]byte{}
	for wi, bits := range o.Bits {
		ws := RaceWidthSummary{Bits: bits}
		idx := map[string]int{}
		var race, raceLUTs, oracle []float64
		for _, r := range s.Results {
			if wi >= len(r.Widths) {
				continue
			}
			w := r.Widths[wi]
			ws.Datasets++
			best := math.Inf(-1)
			for _, e := range w.Entries {
				name := e.Member.Name()
				i, ok := idx[name]
				if !ok {
					i = len(ws.Members)
					idx[name] = i
					ws.Members = append(ws.Members, RaceMemberSummary{Member: name})
				}
				ms := &ws.Members[i]
				if e.Impossible != "" {
					ms.Impossible++
					continue
				}
				fmt.Fprintf(&tsv, "%s\t%s\t%d\t%.4f\t%.0f\t%v\n", r.Dataset, e.Config(), bits, e.Accuracy, e.LUTs, e.Chosen)
				ms.Datasets++
				ms.Accuracy += e.Accuracy
				ms.LUTs += e.LUTs
				best = math.Max(best, e.Accuracy)
				if e.Chosen {
					ms.Chosen++
					race = append(race, e.Accuracy)
					raceLUTs = append(raceLUTs, e.LUTs)
				}
			}
			oracle = append(oracle, best)
		}
		for i := range ws.Members {
			if m := &ws.Members[i]; m.Datasets > 0 {
				m.Accuracy /= float64(m.Datasets)
				m.LUTs /= float64(m.Datasets)
			}
		}
		if ws.Datasets > 0 {
			ws.Accuracy, ws.LUTs, ws.Oracle = protocol.Mean(race), protocol.Mean(raceLUTs), protocol.Mean(oracle)
			files[fmt.Sprintf("accuracy-vs-luts-%dbit.svg", bits)] = racePlot(ws)
		}
		sum.Widths = append(sum.Widths, ws)
	}
	js, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	files["accuracy.tsv"] = tsv.Bytes()
	files["summary.json"] = append(js, '\n')
	files["summary.md"] = []byte(sum.markdown() + jobs.RunLogMarkdown(dir))
	for name, data := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

// racePlot draws each member's and the race's mean accuracy against mean
// LUT-equivalents, one marker each.
func racePlot(ws RaceWidthSummary) []byte {
	var series []svgplot.Series
	maxX, minY, maxY := 0.0, 1.0, 0.0
	add := func(name string, x, y float64) {
		series = append(series, svgplot.Series{Name: name, X: []float64{x}, Y: []float64{y}})
		maxX, minY, maxY = math.Max(maxX, x), math.Min(minY, y), math.Max(maxY, y)
	}
	for _, m := range ws.Members {
		if m.Datasets > 0 {
			add(fmt.Sprintf("%s (%d datasets)", m.Member, m.Datasets), m.LUTs, m.Accuracy)
		}
	}
	add(fmt.Sprintf("race: chosen by validation (%d datasets)", ws.Datasets), ws.LUTs, ws.Accuracy)
	const pad = 0.05
	y := svgplot.Axis{Label: "mean accuracy (protocol test folds, seeds)", Min: math.Max(0, math.Floor((minY-pad)*20)/20), Max: math.Min(1, math.Ceil((maxY+pad)*20)/20)}
	x := svgplot.Axis{Label: "mean LUT-equivalents at P = 1 (analytic model)", Min: 0, Max: niceCeil(maxX * 1.1)}
	return svgplot.Lines(fmt.Sprintf("Race of the hardware networks, %d-bit readout: accuracy against cost", ws.Bits), x, y, series, nil)
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// memberNsText names the N a member has beyond the race's: " (conj also
// N ∈ [6000])", or "".
func memberNsText(m map[string][]int) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s also N ∈ %v", name, m[name]))
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func (s *RaceSummary) markdown() string {
	var b strings.Builder
	b.WriteString("# The race of the hardware networks\n\n")
	b.WriteString(s.Provenance.markdown(s.Reused, "datasets"))
	if len(s.Members) > 0 {
		fmt.Fprintf(&b, "- datasets: %d; members: %s (`--race-members`)\n", s.Datasets, strings.Join(s.Members, ", "))
	} else {
		fmt.Fprintf(&b, "- datasets: %d; members: every protocol variant whose network type has a power model, with each W_in source its type offers\n", s.Datasets)
	}
	fmt.Fprintf(&b, "- grid per member: N ∈ %v%s, κ ∈ %v (types with κ%s), λ ∈ 2^%g…2^%g; chosen by the deployed readout's correct predictions on inner validation rows "+
		"(every %d-th row of each training fold, or of the train file; never a test row), ties by the protocol's rule; the race's winner is %s unless another member's "+
		"validation accuracy is more than %d standard errors above it, then the member with the most, ties to fewer LUT-equivalents\n",
		s.Ns, memberNsText(s.MemberNs), s.Grid.Kappas, ownKappaGrids(), math.Log2(s.Grid.Lambdas[0]), math.Log2(s.Grid.Lambdas[len(s.Grid.Lambdas)-1]), raceValEvery, RacePreferred.Name(), RaceKeepSE)
	fmt.Fprintf(&b, "- budget: at most %g× the LUT-equivalents of the plain intRVFL with N=%d, κ=%d and the race's readout width, all at P = 1 "+
		"(analytic resource model, `power.Analytic`; LUT-equivalents = LUT6 + LUTRAM + %d per DSP48E1 + %d per RAMB18)\n",
		s.Budget, RaceRefN, RaceRefKappa, LUTsPerHardBlock, LUTsPerHardBlock)
	fmt.Fprintf(&b, "- accuracy: the protocol's test mean over folds (or the test file, %q normalisation) and seeds %v\n", s.TestNorm, s.Seeds)
	for _, sk := range s.Skipped {
		fmt.Fprintf(&b, "- skipped %s: %s\n", sk.Dataset, sk.Reason)
	}
	if s.Datasets == 0 {
		b.WriteString("\nNo results yet: rerun the command to resume.\n")
		return b.String()
	}
	for _, w := range s.Widths {
		fmt.Fprintf(&b, "\n## %d-bit readout (%d datasets)\n\n", w.Bits, w.Datasets)
		b.WriteString("| member | datasets | mean accuracy | mean LUT-eq | chosen on | over budget on |\n|---|---|---|---|---|---|\n")
		for _, m := range w.Members {
			fmt.Fprintf(&b, "| %s | %d | %.4f | %.0f | %d | %d |\n", m.Member, m.Datasets, m.Accuracy, m.LUTs, m.Chosen, m.Impossible)
		}
		fmt.Fprintf(&b, "| **race** (validation's choice) | %d | **%.4f** | %.0f | | |\n", w.Datasets, w.Accuracy, w.LUTs)
		fmt.Fprintf(&b, "\nOracle (each dataset's best member by test accuracy, not a result): %.4f. Plot: [accuracy-vs-luts-%dbit.svg](accuracy-vs-luts-%dbit.svg).\n",
			w.Oracle, w.Bits, w.Bits)
	}
	return b.String()
}

// ownKappaGrids names the members whose type has its own κ grid
// (model.Traits.KappaGrid), for the summary: "; conj: D ∈ [1 2 3 4]".
func ownKappaGrids() string {
	out := ""
	for _, m := range RaceMembers() {
		t := m.Network.Traits()
		if t.KappaGrid != nil {
			out += fmt.Sprintf("; %s: %s ∈ %v", m.Name(), t.KappaLabel(), t.KappaGrid)
		}
	}
	return out
}
