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
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/model"
)

// Thresholds of the retune summary's counts, in accuracy (not points).
const (
	retuneCloseLoss = 0.005 // "within 0.5 points of the float readout"
	retuneLargeLoss = 0.05  // "loses more than 5 points"
)

// RetuneLoss summarises the rounded readout's loss against the accuracy
// study's float readout over the datasets, in percentage points.
type RetuneLoss struct {
	Mean       float64 `json:"mean_accuracy"`
	MeanPoints float64 `json:"mean_loss_points"`   // mean(rounded) − mean(float)
	Median     float64 `json:"median_loss_points"` // median over datasets of rounded − float
	Within     int     `json:"within_half_point"`  // datasets losing at most 0.5 points
	Large      int     `json:"over_five_points"`   // datasets losing more than 5 points
}

// RetuneSummary is retune-summary.json.
type RetuneSummary struct {
	Provenance
	Reused       int                 `json:"reused_datasets"`
	Datasets     int                 `json:"datasets"`
	Regularizers []model.Regularizer `json:"regularizers"`
	Bits         int                 `json:"bits"`
	Bound        int                 `json:"bound"`
	Seeds        []uint64            `json:"seeds"`
	// FloatOriginal is the float readout at the accuracy study's λ: the
	// reference both rounded readouts are measured against.
	FloatOriginal float64    `json:"float_original"`
	FloatRetuned  float64    `json:"float_retuned"`
	Original      RetuneLoss `json:"rounded_original"`
	Retuned       RetuneLoss `json:"rounded_retuned"`
	// Retuned vs original rounded readout, per dataset (a = original).
	Comparison      protocol.Comparison `json:"retuned_vs_original"`
	LambdaChanged   int                 `json:"lambda_changed"`
	LambdaRaised    int                 `json:"lambda_raised"`
	LambdaAtGridTop int                 `json:"lambda_at_grid_top"` // retuned λ at the largest λ of the grid
	// With the GA lever (RetuneOptions.GA): the chosen readout (GA-refined
	// where it validated better, else rounded at the retuned λ), the datasets
	// where the refinement was chosen, and the test norm of the study.
	GA       *RetuneLoss       `json:"ga_lever,omitempty"`
	GAChosen int               `json:"ga_chosen,omitempty"`
	TestNorm protocol.TestNorm `json:"test_norm,omitempty"`
	Skipped  []Skipped         `json:"skipped"`
}

// WriteRetuneReport writes retune.tsv and retune-summary.{json,md} into dir.
func WriteRetuneReport(dir string, s *RetuneStudy, command string, now time.Time) (*RetuneSummary, error) {
	o := s.Options
	sum := &RetuneSummary{Provenance: newProvenance(command, now, s.WallSeconds),
		Reused: s.Reused, Datasets: len(s.Results), Bits: o.Bits,
		Seeds: o.Seeds, Skipped: s.Skipped}
	var tsv bytes.Buffer
	gaCols := ""
	if o.GA {
		gaCols = "\tval_ga_correct\tga_chosen\tchosen"
		sum.TestNorm = o.TestNorm
	}
	tsv.WriteString("dataset\tn\tkappa\tlambda\tlambda_retuned\tval_rounded_correct\tval_rounded_correct_retuned\tval_rows\t" +
		"float\trounded\tfloat_retuned\trounded_retuned" + gaCols + "\tseconds\n")
	var floatOrig, roundOrig, roundNew, chosen []float64
	for _, r := range s.Results {
		sum.Bound = r.Bound
		if !slices.Contains(sum.Regularizers, r.Regularizer) {
			sum.Regularizers = append(sum.Regularizers, r.Regularizer)
		}
		fmt.Fprintf(&tsv, "%s\t%d\t%d\t%g\t%g\t%d\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f", r.Dataset, r.Original.N, r.Original.Kappa,
			r.Original.Lambda, r.Retuned.Lambda, r.OriginalRoundedCorrect, r.Retuned.Correct, r.Retuned.ValRows,
			r.FloatOriginal, r.RoundedOriginal, r.FloatRetuned, r.RoundedRetuned)
		if o.GA {
			fmt.Fprintf(&tsv, "\t%d\t%v\t%.4f", r.GACorrect, r.GAChosen, r.Chosen)
			chosen = append(chosen, r.Chosen)
			if r.GAChosen {
				sum.GAChosen++
			}
		}
		fmt.Fprintf(&tsv, "\t%.1f\n", r.Seconds)
		floatOrig = append(floatOrig, r.FloatOriginal)
		roundOrig = append(roundOrig, r.RoundedOriginal)
		roundNew = append(roundNew, r.RoundedRetuned)
		sum.FloatRetuned += r.FloatRetuned / float64(len(s.Results))
		if r.Retuned.Lambda != r.Original.Lambda {
			sum.LambdaChanged++
		}
		if r.Retuned.Lambda > r.Original.Lambda {
			sum.LambdaRaised++
		}
		if r.Retuned.Lambda == r.MaxLambda {
			sum.LambdaAtGridTop++
		}
	}
	if len(s.Results) > 0 {
		sum.FloatOriginal = protocol.Mean(floatOrig)
		sum.Original = retuneLoss(floatOrig, roundOrig)
		sum.Retuned = retuneLoss(floatOrig, roundNew)
		sum.Comparison = protocol.Compare(roundOrig, roundNew)
		if o.GA {
			l := retuneLoss(floatOrig, chosen)
			sum.GA = &l
		}
	}
	js, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"retune.tsv":          tsv.Bytes(),
		"retune-summary.json": append(js, '\n'),
		"retune-summary.md":   []byte(sum.markdown() + jobs.RunLogMarkdown(dir)),
	}
	for name, data := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

// retuneLoss compares the rounded accuracies with the float ones.
func retuneLoss(float, rounded []float64) RetuneLoss {
	l := RetuneLoss{Mean: protocol.Mean(rounded), MeanPoints: 100 * (protocol.Mean(rounded) - protocol.Mean(float))}
	d := make([]float64, len(float))
	for i := range float {
		d[i] = rounded[i] - float[i]
		if d[i] >= -retuneCloseLoss {
			l.Within++
		}
		if d[i] < -retuneLargeLoss {
			l.Large++
		}
	}
	slices.Sort(d)
	l.Median = 100 * protocol.Median(d)
	return l
}

func (s *RetuneSummary) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Integer readout with λ retuned for it\n\n")
	b.WriteString(s.Provenance.markdown(s.Reused, "datasets"))
	fmt.Fprintf(&b, "- datasets: %d; N and κ from the accuracy study; λ chosen again from the accuracy study's λ grid, on its validation split, "+
		"by the validation accuracy of the %d-bit rounded readout (levels −%d…%d; ties to the largest λ); test accuracy over seeds %v\n",
		s.Datasets, s.Bits, s.Bound, s.Bound, s.Seeds)
	fmt.Fprintf(&b, "- ridge penalty: %v\n", s.Regularizers)
	for _, sk := range s.Skipped {
		fmt.Fprintf(&b, "- skipped %s: %s\n", sk.Dataset, sk.Reason)
	}
	if s.Datasets == 0 {
		b.WriteString("\nNo results yet: rerun the command to resume.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "\nReference: the float readout at the accuracy study's λ, mean %.4f. Losses in percentage points against it, per dataset.\n\n", s.FloatOriginal)
	b.WriteString("| readout | λ | mean accuracy | mean loss | median loss | datasets within 0.5 points | datasets losing > 5 points |\n|---|---|---|---|---|---|---|\n")
	for _, row := range []struct {
		name, lambda string
		l            *RetuneLoss
	}{{fmt.Sprintf("%d-bit rounded", s.Bits), "accuracy study's", &s.Original}, {fmt.Sprintf("%d-bit rounded", s.Bits), "retuned", &s.Retuned},
		{fmt.Sprintf("%d-bit, GA-refined where it validates better", s.Bits), "retuned", s.GA}} {
		if row.l == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %.4f | %+.2f | %+.2f | %d/%d | %d |\n", row.name, row.lambda, row.l.Mean, row.l.MeanPoints, row.l.Median,
			row.l.Within, s.Datasets, row.l.Large)
	}
	fmt.Fprintf(&b, "\nFloat readout at the retuned λ: %.4f. λ changed on %d datasets (raised on %d); the retuned λ is the grid's largest on %d.\n",
		s.FloatRetuned, s.LambdaChanged, s.LambdaRaised, s.LambdaAtGridTop)
	if s.GA != nil {
		fmt.Fprintf(&b, "\nGA lever: the GA refinement of the rounded readout (seeded with it; population 32, ≤ 500 generations, patience 100, ≤ %d training rows) "+
			"was chosen on %d of %d datasets (strictly more correct validation predictions at the retuned λ); two-file test files normalised by the %q rule.\n",
			retuneGARows, s.GAChosen, s.Datasets, s.TestNorm)
	}
	c := s.Comparison
	fmt.Fprintf(&b, "\nRetuned vs original rounded readout: wins/ties/losses %d/%d/%d; p-values: paired t %.3g, Wilcoxon signed-rank %.3g.\n",
		c.Wins, c.Ties, c.Losses, c.PairedT, c.Wilcoxon)
	return b.String()
}
