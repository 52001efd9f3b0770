package study

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

// DefaultRetuneBits is the readout width of the retune stage: the paper's 5 bits.
const DefaultRetuneBits = 5

// RetuneOptions configures the retune study. The accuracy study picks λ by the
// validation accuracy of the float readout, but the hardware runs the rounded
// integer readout, and the λ best for one is not always best for the other: a
// weakly regularised readout has a few large weights that set the quantisation
// step, so most of its weights round to a handful of levels. The retune study
// keeps each dataset's N and κ from the accuracy study and chooses λ again,
// from the same grid and on the same validation split, by the validation
// accuracy of the Bits-bit rounded readout (Search with SearchOptions.Bits);
// then it evaluates both λ with the protocol.
type RetuneOptions struct {
	DataDir   string
	OutDir    string // the accuracy study's folder: its intrvfl results give N, κ, λ and the λ grid
	Datasets  []string
	Bits      int      // default DefaultRetuneBits
	Seeds     []uint64 // default protocol.DefaultSeeds
	Workers   int
	TestNorm  protocol.TestNorm
	Progress  io.Writer
	Shard     jobs.Shard // this run's share of the datasets (zero value: all)
	ReuseOnly bool       // compute nothing: every selected result must be stored (a merge)
	// GA adds the GA lever of issue 15: at the retuned λ, the rounded readout
	// of the search split's network (seed 0) is refined by the GA seeded with
	// it (quant.Refine, StudyGAOptions, at most 4000 training rows), and the
	// refinement is chosen when its validation accuracy is strictly higher
	// than the rounded readout's. A chosen refinement is then evaluated the
	// same way for every seed and fold: ridge at λ, rounded, refined on the
	// fold's training rows (RetuneResult.Chosen).
	GA bool
}

func (o *RetuneOptions) defaults() {
	if o.Bits == 0 {
		o.Bits = DefaultRetuneBits
	}
	runDefaults(&o.Seeds, &o.Workers, &o.TestNorm, &o.Progress)
}

// RetuneResult is one dataset's outcome. The accuracies are protocol means over
// seeds and folds (or the test file), as in the readout study.
type RetuneResult struct {
	Dataset     string            `json:"dataset"`
	Fingerprint string            `json:"fingerprint"`
	Data        string            `json:"data_sha256"`
	Regularizer model.Regularizer `json:"regularizer"`
	Bits        int               `json:"bits"`
	Bound       int               `json:"bound"`
	// Original is the accuracy study's selection (by the float readout).
	Original protocol.Best `json:"original"`
	// Retuned has the same N and κ and the λ whose rounded readout has the
	// most correct validation predictions (ties to the largest λ); Correct and
	// ValAccuracy are those of the rounded readout.
	Retuned protocol.Best `json:"retuned"`
	// OriginalRoundedCorrect counts the correct validation predictions of the
	// rounded readout at the original λ (never above Retuned.Correct: the
	// original λ is one of the candidates).
	OriginalRoundedCorrect int `json:"original_rounded_correct"`
	// MaxLambda is the largest λ of the grid.
	MaxLambda float64 `json:"max_lambda"`
	// Test accuracies: float and rounded readouts at the original and at the
	// retuned λ (equal pairs when λ did not change).
	FloatOriginal   float64 `json:"float_original"`
	RoundedOriginal float64 `json:"rounded_original"`
	FloatRetuned    float64 `json:"float_retuned"`
	RoundedRetuned  float64 `json:"rounded_retuned"`
	// With RetuneOptions.GA: the correct validation predictions of the
	// GA-refined readout at the retuned λ, whether it was chosen, and the
	// test accuracy of the chosen readout (RoundedRetuned when not).
	GACorrect int     `json:"ga_correct,omitempty"`
	GAChosen  bool    `json:"ga_chosen,omitempty"`
	Chosen    float64 `json:"chosen,omitempty"`
	Seconds   float64 `json:"seconds"`
}

// RunRetune runs (or resumes) the retune study for every dataset whose intRVFL
// accuracy result is stored in OutDir. Each finished dataset is stored as
// OutDir/runs/intrvfl/<dataset>.retune.json.
func RunRetune(ctx context.Context, opt RetuneOptions) (*RetuneStudy, error) {
	opt.defaults()
	if opt.Bits < quant.MinBits || opt.Bits > quant.MaxBits {
		return nil, fmt.Errorf("retune study: readout bits %d outside [%d, %d]", opt.Bits, quant.MinBits, quant.MaxBits)
	}
	start := time.Now()
	st := jobs.Store{Dir: opt.OutDir}
	accs, skipped, err := intRVFLAccuracyResults(st, opt.DataDir, opt.Datasets)
	if err != nil {
		return nil, err
	}
	out := &RetuneStudy{Options: opt, Skipped: skipped, Datasets: len(accs) + len(skipped)}
	type job struct {
		name string
		acc  *RunResult
		fp   string
	}
	cost := func(acc *RunResult) float64 {
		return float64(acc.Rows) * float64(acc.Search.Best.N) * float64(acc.Search.Best.N+acc.L)
	}
	fpOf := func(acc *RunResult) string {
		fp := jobs.Fingerprint("retune-v1", opt.Bits, opt.Seeds, opt.TestNorm, acc.Search.Grid.Lambdas, acc.Search.Best, acc.Reg())
		if opt.GA {
			fp = jobs.Fingerprint(fp, "ga", StudyGAOptions(), retuneGARows)
		}
		return fp
	}
	run, _, err := jobs.Resume(StageRetune, opt.Shard, accs, cost, opt.ReuseOnly, func(acc *RunResult) string { return acc.Dataset },
		func(acc *RunResult) (bool, error) {
			ok, err := reuse(st, runPath("retune", protocol.IntRVFL, acc.Dataset), fpOf(acc), acc.Data, &out.Results, &out.Reused)
			return ok || (err == nil && opt.ReuseOnly && unloadable(opt.DataDir, acc.Dataset, &out.Skipped)), err
		})
	if err != nil {
		return nil, err
	}
	var todo []job
	for _, acc := range run {
		todo = append(todo, job{acc.Dataset, acc, fpOf(acc)})
	}
	fmt.Fprintf(opt.Progress, "retune study (%d-bit readout): %d datasets to run, %d reused\n", opt.Bits, len(todo), out.Reused)
	oc := jobs.NewOutcomes(&out.Skipped, "retune study")
	done := 0
	work := func(j job) (*RetuneResult, error) {
		r, err := retuneDataset(ctx, opt, j.name, j.acc, j.fp)
		if err == nil {
			r.Data = j.acc.Data
			err = st.Save(runPath("retune", protocol.IntRVFL, j.name), r)
		}
		return r, err
	}
	jobs.Run(ctx, opt.Workers, todo, work, func(j job, r *RetuneResult, err error) {
		done++
		if oc.Add(j.name, err) == jobs.Done {
			out.Results = append(out.Results, r)
			fmt.Fprintf(opt.Progress, "[%d/%d] retune %s (N=%d κ=%d): λ %g → %g; float %.4f, rounded %.4f → %.4f (%.1fs)\n",
				done, len(todo), j.name, r.Original.N, r.Original.Kappa, r.Original.Lambda, r.Retuned.Lambda,
				r.FloatOriginal, r.RoundedOriginal, r.RoundedRetuned, r.Seconds)
		}
	})
	out.WallSeconds = time.Since(start).Seconds()
	sort.Slice(out.Results, func(i, j int) bool { return out.Results[i].Dataset < out.Results[j].Dataset })
	return out, oc.Err(ctx)
}

// retuneDataset re-selects λ for one dataset and evaluates both selections.
func retuneDataset(ctx context.Context, opt RetuneOptions, name string, acc *RunResult, fp string) (*RetuneResult, error) {
	start := time.Now()
	u, err := dataset.LoadUCI(opt.DataDir, name)
	if err != nil {
		return nil, jobs.LoadError{Err: err}
	}
	orig := acc.Search.Best
	bound := quant.BoundForBits(opt.Bits)
	lambdas := acc.Search.Grid.Lambdas
	li := slices.Index(lambdas, orig.Lambda)
	if li < 0 {
		return nil, fmt.Errorf("the accuracy study's λ %g is not in its own grid %v", orig.Lambda, lambdas)
	}
	g := protocol.Grid{Ns: []int{orig.N}, Lambdas: lambdas, Kappas: []int{orig.Kappa}}
	res, err := protocol.Search(ctx, u, protocol.IntRVFL, protocol.SearchOptions{Grid: g, Regularizer: acc.Reg(), Bits: opt.Bits})
	if err != nil {
		return nil, err
	}
	r := &RetuneResult{Dataset: name, Fingerprint: fp, Regularizer: acc.Reg(), Bits: opt.Bits, Bound: bound,
		Original: orig, Retuned: res.Best, OriginalRoundedCorrect: res.Correct[0][0][li], MaxLambda: slices.Max(lambdas)}
	ro := ReadoutOptions{Bounds: []int{bound}, Seeds: opt.Seeds, NoGA: true, TestNorm: opt.TestNorm}
	ro.defaults()
	atOrig, err := readoutOf(ctx, ro, u, orig, acc.Reg(), "")
	if err != nil {
		return nil, fmt.Errorf("λ=%g: %w", orig.Lambda, err)
	}
	r.FloatOriginal, r.RoundedOriginal = atOrig.Float, atOrig.Round[0]
	r.FloatRetuned, r.RoundedRetuned = r.FloatOriginal, r.RoundedOriginal
	if r.Retuned.Lambda != orig.Lambda {
		atNew, err := readoutOf(ctx, ro, u, r.Retuned, acc.Reg(), "")
		if err != nil {
			return nil, fmt.Errorf("λ=%g: %w", r.Retuned.Lambda, err)
		}
		r.FloatRetuned, r.RoundedRetuned = atNew.Float, atNew.Round[0]
	}
	if opt.GA {
		if err := retuneGA(ctx, opt, u, r); err != nil {
			return nil, err
		}
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// retuneGARows caps the training rows the GA lever's fitness sees.
const retuneGARows = 4000

// retuneGA is RetuneOptions.GA for one dataset: the choice on the search
// split, then the chosen readout's test accuracy.
func retuneGA(ctx context.Context, opt RetuneOptions, u *dataset.UCIDataset, r *RetuneResult) error {
	b := r.Retuned
	s := protocol.NewSplit(u)
	sp := protocol.Part{XTrain: s.XTrain, YTrain: s.YTrain, MTrain: s.MTrain, XTest: s.XVal, YTest: s.YVal, MTest: s.MVal}
	cfg := protocol.IntRVFL.Config(b.N, b.Lambda, b.Kappa)
	cfg.Regularizer = r.Regularizer
	m, err := model.TrainNormalized(ctx, trainDataOf(u.Data, sp), sp.XTrain, model.Normalizer{Min: make([]float64, u.Data.K()), Max: ones(u.Data.K())}, cfg)
	if err != nil {
		return fmt.Errorf("GA lever: %w", err)
	}
	rounded, err := quant.Quantize(m.Wout, m.L(), m.N(), r.Bound)
	if err != nil {
		return err
	}
	hva, err := m.Activations(sp.XTest, sp.MTest)
	if err != nil {
		return err
	}
	htr, ytr := gaRows(m, sp, retuneGARows, 0)
	g := StudyGAOptions()
	g.Seed = uint64(r.Bound) // readoutOf's GA seed of seed 0, split 0
	ref, err := quant.Refine(ctx, rounded, htr, ytr, g)
	if err != nil {
		return fmt.Errorf("GA lever: %w", err)
	}
	correct := func(q quant.Readout) (int, error) {
		acc, err := quant.Accuracy(hva, q, sp.YTest)
		return int(math.Round(acc * float64(sp.MTest))), err
	}
	base, err := correct(rounded) // Retuned.Correct, recounted on this network
	if err != nil {
		return err
	}
	if r.GACorrect, err = correct(ref.Readout); err != nil {
		return err
	}
	r.Chosen = r.RoundedRetuned
	if r.GAChosen = r.GACorrect > base; !r.GAChosen {
		return nil
	}
	ro := ReadoutOptions{Bounds: []int{r.Bound}, Seeds: opt.Seeds, GASeeds: opt.Seeds, NoRandomGA: true,
		MaxGARows: retuneGARows, TestNorm: opt.TestNorm}
	ro.defaults()
	res, err := readoutOf(ctx, ro, u, b, r.Regularizer, "")
	if err != nil {
		return fmt.Errorf("GA lever, λ=%g: %w", b.Lambda, err)
	}
	r.Chosen = res.GARounded[0]
	return nil
}
