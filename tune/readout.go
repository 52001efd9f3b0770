package tune

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/readout"
)

// The readouts ChooseReadout compares.
const (
	ReadoutRounded = "rounded" // the float readout rounded to the integer levels
	ReadoutGA      = "ga"      // the rounding refined by the GA (readout.GARounded)
)

// ReadoutChoice is the validation of the rounded and of the GA-refined
// integer readout of one configuration on the task's splits: which one to
// deploy is decided here, on the training rows only.
type ReadoutChoice struct {
	Chosen  string   `json:"chosen"` // ReadoutRounded or ReadoutGA
	Rounded Accuracy `json:"rounded"`
	GA      Accuracy `json:"ga"`
	// Correct predictions of each over every split and seed, of ValRows.
	RoundedCorrect int `json:"rounded_correct"`
	GACorrect      int `json:"ga_correct"`
	ValRows        int `json:"val_rows"`
	// The GA's settings (quant.GAOptions).
	GASeed      uint64 `json:"ga_seed"`
	Population  int    `json:"population"`
	Generations int    `json:"generations"`
	Patience    int    `json:"patience"`
}

// readoutProgressEvery is the least time between two lines of the GA's
// generations in ChooseReadout (a variable for the tests).
var readoutProgressEvery = 10 * time.Second

// readoutFormat versions the stored readout parts.
const readoutFormat = "hdlgen-readout-part/1"

// readoutRecord is a stored part of ChooseReadout: one seed and split.
type readoutRecord struct {
	Fingerprint string  `json:"fingerprint"`
	Data        string  `json:"data_sha256"`
	Rounded     int     `json:"rounded_correct"`
	GA          int     `json:"ga_correct"`
	Rows        int     `json:"val_rows"`
	Seconds     float64 `json:"seconds"`
}

// ChooseReadout trains cfg (its Seed replaced by each seed) on the fitted
// rows of every validation split, rounds its readout to −bound…bound and
// refines a copy with the GA (ga, fitted on the same rows, seeded with the
// rounding), and counts the correct predictions of both on the split's
// validation rows. The GA is chosen only when it validates strictly better
// in total. Parts are kept in t.Store like the search's, and run on
// t.Workers goroutines.
func (t *Task) ChooseReadout(ctx context.Context, cfg model.Config, bound int, ga quant.GAOptions, seeds []uint64) (*ReadoutChoice, error) {
	if tr, _ := model.TraitsOf(cfg.Arch); !tr.ReadoutBits() {
		return nil, fmt.Errorf("readout %s: the GA refines an integer readout of a chosen width (%s), not the %s's", t.Name,
			model.Alternatives(model.ArchsWith(model.Traits.ReadoutBits)), cfg.Arch)
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("readout %s: no seed", t.Name)
	}
	cfg.ReadoutBits = 0
	ga.Progress = nil
	type job struct{ si, f int }
	var all []job
	for si := range seeds {
		for f := range t.Splits {
			all = append(all, job{si, f})
		}
	}
	var store *jobs.Store
	if t.Store != "" {
		store = &jobs.Store{Dir: t.Store, Sealed: true} // a changed part is scored again
	}
	dataKey := t.dataKey()
	fingerprint := func(j job) string {
		c := cfg
		c.Seed, c.Threads = seeds[j.si], 0
		g := ga
		g.Workers = 0 // the GA's result does not depend on it
		return jobs.Fingerprint(readoutFormat, c, bound, g, t.splitKey(j.f))
	}
	rel := func(j job) string { return fmt.Sprintf("readout/seed%d-split%d.json", seeds[j.si], j.f+1) }
	recs := make([]readoutRecord, len(all))
	var todo []int
	for i, j := range all {
		if store != nil {
			ok, err := store.Load(rel(j), fingerprint(j), dataKey, &recs[i])
			if err != nil {
				return nil, fmt.Errorf("readout %s: %w", t.Name, err)
			}
			if ok {
				continue
			}
		}
		todo = append(todo, i)
	}
	start := time.Now()
	done := 0
	// The GA's generations, summed over the parts, between the parts' lines:
	// a part on many rows or neurons takes minutes.
	var mu sync.Mutex
	gens := make(map[int]int, len(todo))
	last := start
	generation := func(i, g int) {
		mu.Lock()
		defer mu.Unlock()
		gens[i] = g
		if time.Since(last) < readoutProgressEvery {
			return
		}
		last = time.Now()
		sum := 0
		for _, v := range gens {
			sum += v
		}
		total := len(todo) * max(ga.Generations, 1)
		t.progress("readout %s: GA generation %d of at most %d over %d parts, about %s left at most", t.Name, sum, total, len(todo),
			jobs.TimeLeft(start, float64(sum), float64(total)))
	}
	var firstErr error
	jobs.Run(ctx, t.Workers, todo, func(i int) (readoutRecord, error) {
		g := ga
		g.Progress = func(gen int, _ float64) { generation(i, gen) }
		return t.readoutPart(ctx, cfg, seeds[all[i].si], all[i].f, bound, g)
	}, func(i int, r readoutRecord, err error) {
		if err == nil && store != nil {
			r.Fingerprint, r.Data = fingerprint(all[i]), dataKey
			err = store.Save(rel(all[i]), r)
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		recs[i] = r
		done++
		mu.Lock()
		gens[i] = max(ga.Generations, 1) // a GA stopped early (patience) is done too
		mu.Unlock()
		t.progress("readout %s: split %d/%d, seed %d: rounded %d, GA %d of %d correct in %.1fs; %d/%d parts, about %s left", t.Name,
			all[i].f+1, len(t.Splits), seeds[all[i].si], r.Rounded, r.GA, r.Rows, r.Seconds, done, len(todo), jobs.TimeLeft(start, float64(done), float64(len(todo))))
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("readout %s: stopped after %d of %d parts: %w", t.Name, done, len(todo), err)
	}
	if firstErr != nil {
		return nil, fmt.Errorf("readout %s: %w", t.Name, firstErr)
	}
	c := &ReadoutChoice{Chosen: ReadoutRounded, GASeed: ga.Seed, Population: ga.Population, Generations: ga.Generations, Patience: ga.Patience}
	rounded, refined := make([][]float64, len(seeds)), make([][]float64, len(seeds))
	for i, j := range all {
		r := recs[i]
		c.RoundedCorrect += r.Rounded
		c.GACorrect += r.GA
		c.ValRows += r.Rows
		rounded[j.si] = append(rounded[j.si], float64(r.Rounded)/float64(r.Rows))
		refined[j.si] = append(refined[j.si], float64(r.GA)/float64(r.Rows))
	}
	c.Rounded, c.GA = accuracyOf(rounded), accuracyOf(refined)
	if c.GACorrect > c.RoundedCorrect {
		c.Chosen = ReadoutGA
	}
	return c, nil
}

// readoutPart trains on split f's fitted rows and counts the correct
// validation predictions of the rounded and the GA-refined readout.
func (t *Task) readoutPart(ctx context.Context, cfg model.Config, seed uint64, f, bound int, ga quant.GAOptions) (readoutRecord, error) {
	t0 := time.Now()
	s := t.Splits[f]
	fit, val := t.Train.Subset(s.Train), t.Train.Subset(s.Test)
	cfg.Seed = seed
	m, err := model.Train(ctx, model.Data{Name: t.Name, X: fit.X, Y: fit.Y, ClassNames: fit.ClassNames, FeatureNames: fit.FeatureNames,
		LabelName: fit.LabelName}, cfg)
	if err != nil {
		return readoutRecord{}, fmt.Errorf("split %d seed %d: %w", f+1, seed, err)
	}
	count := func(m *model.Model) int {
		n := 0
		for r := 0; r < val.M(); r++ {
			if m.Predict(val.Row(r)) == val.Y[r] {
				n++
			}
		}
		return n
	}
	rounded := *m
	if _, err := readout.Quantize(ctx, &rounded, nil, readout.Options{Bound: bound}); err != nil {
		return readoutRecord{}, fmt.Errorf("split %d seed %d: %w", f+1, seed, err)
	}
	refined := *m
	data := &readout.Data{X: fit.X, Rows: fit.M(), Y: fit.Y}
	if _, err := readout.Quantize(ctx, &refined, data, readout.Options{Bound: bound, Method: readout.GARounded, GA: ga}); err != nil {
		return readoutRecord{}, fmt.Errorf("split %d seed %d: %w", f+1, seed, err)
	}
	return readoutRecord{Rounded: count(&rounded), GA: count(&refined), Rows: val.M(), Seconds: time.Since(t0).Seconds()}, nil
}
