package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/svgplot"
)

// Paper's figures for the accuracy study (Kleyko et al. 2020, Section IV-A).
const (
	PaperMeanRVFL       = 0.76
	PaperMeanIntRVFL    = 0.80
	PaperPearson        = 0.86
	PaperMeanRVFLQuant  = 0.753
	PaperMeanRVFLDirect = 0.762
	PaperPearsonQuant   = 0.986
)

// NetworkSummary aggregates one network over the common datasets.
type NetworkSummary struct {
	Network      protocol.Network `json:"network"`
	Datasets     int              `json:"datasets"`
	MeanAccuracy float64          `json:"mean_accuracy"`
	// The same mean with the two-file datasets' test files normalised by the
	// training statistics, and by the auto rule (evaluate.go).
	MeanTestNormTrain float64 `json:"mean_accuracy_test_norm_train"`
	MeanTestNormAuto  float64 `json:"mean_accuracy_test_norm_auto"`
	SearchSeconds     float64 `json:"search_seconds"`
	HiddenSeconds     float64 `json:"hidden_seconds"` // part of the search
	SolveSeconds      float64 `json:"solve_seconds"`  // part of the search
	EvalSeconds       float64 `json:"eval_seconds"`
}

// AccuracySummary is summary.json of the accuracy study.
type AccuracySummary struct {
	Provenance
	Reused      int                  `json:"reused_jobs"`
	Datasets    int                  `json:"datasets"` // with a result for every network
	Networks    []NetworkSummary     `json:"networks"`
	IntVsRVFL   *protocol.Comparison `json:"intrvfl_vs_rvfl,omitempty"`
	QuantVsRVFL *protocol.Comparison `json:"rvfl_qin_vs_rvfl,omitempty"`
	Skipped     []Skipped            `json:"skipped"`
	Incomplete  []string             `json:"incomplete,omitempty"` // datasets missing some network
	Paper       map[string]string    `json:"paper"`
}

// WriteAccuracyReport writes accuracy.tsv, summary.json, summary.md and
// fig5-rvfl-vs-intrvfl.svg into dir.
func WriteAccuracyReport(dir string, s *AccuracyStudy, networks []protocol.Network, command string, now time.Time) (*AccuracySummary, error) {
	if len(networks) == 0 {
		networks = protocol.AccuracyNetworks
	}
	byDS := map[string]map[protocol.Network]*RunResult{}
	for _, r := range s.Results {
		if byDS[r.Dataset] == nil {
			byDS[r.Dataset] = map[protocol.Network]*RunResult{}
		}
		byDS[r.Dataset][r.Network] = r
	}
	var common, incomplete []string
	for ds, m := range byDS {
		all := true
		for _, nw := range networks {
			if m[nw] == nil {
				all = false
			}
		}
		if all {
			common = append(common, ds)
		} else {
			incomplete = append(incomplete, ds)
		}
	}
	sort.Strings(common)
	sort.Strings(incomplete)

	sum := &AccuracySummary{Provenance: newProvenance(command, now, s.WallSeconds),
		Reused: s.Reused, Datasets: len(common), Skipped: s.Skipped, Incomplete: incomplete,
		Paper: map[string]string{"rvfl": paperFigure(PaperMeanRVFL), "intrvfl": paperFigure(PaperMeanIntRVFL), "pearson": paperFigure(PaperPearson),
			"rvfl-qin": paperFigure(PaperMeanRVFLQuant), "rvfl-direct": paperFigure(PaperMeanRVFLDirect), "significance": "5% two-sample test"}}
	acc := map[protocol.Network][]float64{}
	for _, nw := range networks {
		ns := NetworkSummary{Network: nw, Datasets: len(common)}
		var trainNorm, autoNorm []float64
		for _, ds := range common {
			r := byDS[ds][nw]
			acc[nw] = append(acc[nw], r.Eval.Mean)
			tr, au := r.Eval.Mean, r.Eval.Mean
			if r.Eval.Train != nil {
				tr, au = r.Eval.Train.Mean, r.Eval.Auto().Mean
			}
			trainNorm, autoNorm = append(trainNorm, tr), append(autoNorm, au)
			ns.SearchSeconds += r.Search.Seconds
			ns.HiddenSeconds += r.Search.HiddenSeconds
			ns.SolveSeconds += r.Search.SolveSeconds
			ns.EvalSeconds += r.Eval.Seconds
		}
		if len(common) > 0 { // else the means stay 0 with Datasets 0 (an interrupted first run)
			ns.MeanAccuracy = protocol.Mean(acc[nw])
			ns.MeanTestNormTrain, ns.MeanTestNormAuto = protocol.Mean(trainNorm), protocol.Mean(autoNorm)
		}
		sum.Networks = append(sum.Networks, ns)
	}
	if len(common) > 1 {
		if a, b := acc[protocol.RVFL], acc[protocol.IntRVFL]; a != nil && b != nil {
			c := protocol.Compare(a, b)
			sum.IntVsRVFL = &c
		}
		if a, b := acc[protocol.RVFL], acc[protocol.RVFLQuant]; a != nil && b != nil {
			c := protocol.Compare(a, b)
			sum.QuantVsRVFL = &c
		}
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"accuracy.tsv": accuracyTSV(s.Results),
		"summary.md":   []byte(sum.markdown() + jobs.RunLogMarkdown(dir)),
	}
	js, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	files["summary.json"] = append(js, '\n')
	if acc[protocol.RVFL] != nil && acc[protocol.IntRVFL] != nil {
		var pts []svgplot.Point
		for i, ds := range common {
			pts = append(pts, svgplot.Point{X: acc[protocol.RVFL][i], Y: acc[protocol.IntRVFL][i], Label: ds})
		}
		notes := []string{fmt.Sprintf("%d datasets; mean RVFL %.3f, intRVFL %.3f", len(common), protocol.Mean(acc[protocol.RVFL]), protocol.Mean(acc[protocol.IntRVFL]))}
		if sum.IntVsRVFL != nil {
			notes = append(notes, fmt.Sprintf("Pearson %.3f; paired t p=%.2g; wins/ties/losses %d/%d/%d",
				sum.IntVsRVFL.Pearson, sum.IntVsRVFL.PairedT, sum.IntVsRVFL.Wins, sum.IntVsRVFL.Ties, sum.IntVsRVFL.Losses))
		}
		files["fig5-rvfl-vs-intrvfl.svg"] = svgplot.Scatter("Cross-validation accuracy: conventional RVFL vs intRVFL (paper Fig. 5)",
			svgplot.Axis{Label: "RVFL accuracy", Min: 0, Max: 1}, svgplot.Axis{Label: "intRVFL accuracy", Min: 0, Max: 1}, pts, notes)
	}
	for name, data := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

func accuracyTSV(results []*RunResult) []byte {
	var b bytes.Buffer
	b.WriteString("dataset\tnetwork\tk\tl\trows\tprotocol\tn\tlambda\tkappa\tval_accuracy\taccuracy_mean\taccuracy_std\t" +
		"test_norm\tfiles_mismatched\taccuracy_test_norm_own\taccuracy_test_norm_train\tsearch_s\teval_s\n")
	for _, r := range results {
		s := r.Search.Best
		own, train, tn, mis := "", "", "", ""
		if r.Eval.Own != nil {
			own, train = fmt.Sprintf("%.4f", r.Eval.Own.Mean), fmt.Sprintf("%.4f", r.Eval.Train.Mean)
			tn, mis = string(r.Eval.TestNorm), fmt.Sprint(r.Eval.Mismatched)
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\t%d\t%s\t%d\t%g\t%d\t%.4f\t%.4f\t%.4f\t%s\t%s\t%s\t%s\t%.2f\t%.2f\n",
			r.Dataset, r.Network, r.K, r.L, r.Rows, r.Eval.Protocol, s.N, s.Lambda, s.Kappa, s.ValAccuracy,
			r.Eval.Mean, r.Eval.Std, tn, mis, own, train, r.Search.Seconds, r.Eval.Seconds)
	}
	return b.Bytes()
}

func (s *AccuracySummary) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Accuracy study (paper Section IV-A, Fig. 5)\n\n")
	b.WriteString(s.Provenance.markdown(s.Reused, "stored jobs"))
	fmt.Fprintf(&b, "- datasets with every network: %d; skipped: %d", s.Datasets, len(s.Skipped))
	for _, sk := range s.Skipped {
		fmt.Fprintf(&b, "\n  - %s: %s", sk.Dataset, sk.Reason)
	}
	if len(s.Incomplete) > 0 {
		fmt.Fprintf(&b, "\n- incomplete (some network missing, not in the means): %s", strings.Join(s.Incomplete, ", "))
	}
	b.WriteString("\n\nMean accuracy over the datasets; the two-file datasets' test files are normalised by their own min/max " +
		"(DESIGN.md's default, the published convention); the next two columns use the training statistics instead, " +
		"or the auto rule (own only for the 11 files standardised differently from their partner, a feature constant in the test file at the training rows' median).\n")
	if s.Datasets == 0 {
		b.WriteString("\nNo dataset has a result for every network yet: rerun the command to resume.\n")
		return b.String()
	}
	b.WriteString("\n| network | mean accuracy | paper | test norm train | test norm auto | search time | of it hidden / solve | eval time |\n|---|---|---|---|---|---|---|---|\n")
	paper := map[protocol.Network]float64{protocol.IntRVFL: PaperMeanIntRVFL, protocol.RVFL: PaperMeanRVFL,
		protocol.RVFLQuant: PaperMeanRVFLQuant, protocol.RVFLDirect: PaperMeanRVFLDirect}
	for _, n := range s.Networks {
		fmt.Fprintf(&b, "| %s | %.4f | %s | %.4f | %.4f | %.0f s | %.0f s / %.0f s | %.0f s |\n", n.Network, n.MeanAccuracy, paperFigure(paper[n.Network]),
			n.MeanTestNormTrain, n.MeanTestNormAuto, n.SearchSeconds, n.HiddenSeconds, n.SolveSeconds, n.EvalSeconds)
	}
	if c := s.IntVsRVFL; c != nil {
		fmt.Fprintf(&b, "\nintRVFL vs RVFL over %d datasets: Pearson %.3f (paper %s); wins/ties/losses of the intRVFL %d/%d/%d; "+
			"p-values: paired t %.3g, two-sample t %.3g (the paper's test; significant at 5%% in the paper), Wilcoxon signed-rank %.3g.\n",
			c.N, c.Pearson, paperFigure(PaperPearson), c.Wins, c.Ties, c.Losses, c.PairedT, c.TwoSampleT, c.Wilcoxon)
	}
	if c := s.QuantVsRVFL; c != nil {
		fmt.Fprintf(&b, "\nRVFL with quantised inputs vs RVFL: Pearson %.3f (paper %s), mean %.4f vs %.4f.\n", c.Pearson, paperFigure(PaperPearsonQuant), c.MeanB, c.MeanA)
	}
	return b.String()
}

// paperFigure prints a figure of the paper as the paper does: two decimals,
// or three where it gives three.
func paperFigure(v float64) string {
	if c := v * 100; math.Abs(c-math.Round(c)) < 1e-9 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}
