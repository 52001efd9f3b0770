package study

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/ridge"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// The race (issue 35): per dataset and readout width, every hardware network
// of the registries — each network variant of the protocol whose type has a
// power model, with each W_in source its type offers — chooses its (N, κ, λ)
// under a LUT-equivalent budget by validation on the training folds only, the
// members' choices meet, and the one with the most correct validation
// predictions wins. Every member's choice is evaluated by the protocol (test
// folds, seeds), so the report shows each member's accuracy and cost beside
// the winner's.

// Race defaults.
const (
	// DefaultRaceBudget is the budget factor: a configuration may cost at most
	// this many times the LUT-equivalents of the reference intRVFL
	// (RaceReference) of the same dataset and readout width.
	DefaultRaceBudget = 4.0
	// RaceRefN and RaceRefKappa are the reference intRVFL's N and κ: the
	// paper grid's largest.
	RaceRefN     = 1500
	RaceRefKappa = 15
	// LUTsPerHardBlock is the LUT-equivalent of one DSP48E1 and of one RAMB18
	// (a RAMB36 is two).
	LUTsPerHardBlock = 100
	// raceValEvery: every raceValEvery-th training row of a fold (positions
	// raceValEvery−1, 2·raceValEvery−1, …) is an inner validation row.
	raceValEvery = 4
	raceKind     = "race-v1"
	// RaceKeepSE is how clearly another member must validate above the
	// preferred one (RacePreferred) to win: by more than RaceKeepSE standard
	// errors, √(p(1−p)/n) at the best member's validation accuracy p over the
	// n inner validation rows.
	RaceKeepSE = 2
)

// RacePreferred is the member the race keeps unless another validates
// clearly better (RaceKeepSE): the random conjunctions with their units
// chosen on the training rows (model.ConjSelect candidates each). On small
// datasets the inner validation rows cannot tell the members apart, and
// choosing by the most correct predictions alone lost to keeping one member;
// which member is kept was chosen over the collection by leaving one dataset
// out: with every dataset held out in turn, the member whose rule gives the
// best mean test accuracy on the other 119 is this one, every time
// (results/accuracy-race/README.md, "The preferred member";
// scripts/race-rules.go). The plain intRVFL, preferred before, stays the
// budget's reference (RaceReference).
var RacePreferred = RaceMember{Network: protocol.Network(model.Conj), Select: model.ConjSelect}

// DefaultRaceNs are the race's N: the paper's range sampled, and beyond it.
var DefaultRaceNs = []int{50, 100, 200, 400, 800, 1500, 3000}

// DefaultRaceBits are the readout widths raced by default.
var DefaultRaceBits = []int{5}

// RaceOptions configures the race.
type RaceOptions struct {
	DataDir string
	// OutDir is the race's folder: its jobs (runs/race/<dataset>.json), the
	// report (accuracy.tsv, summary.{json,md}, accuracy-vs-luts.svg) and run log.
	OutDir   string
	Datasets []string
	Bits     []int   // readout widths of the types that take one (default DefaultRaceBits)
	Budget   float64 // factor over the reference (default DefaultRaceBudget)
	// Grid gives λ and κ; Ns the race's N (default DefaultRaceNs).
	Grid protocol.Grid
	Ns   []int
	// MemberNs adds N beyond Ns to one member's grid (by RaceMember.Name,
	// e.g. "conj": {6000}); the budget still applies. A stored race without
	// them keeps the entries of the other members: only the extended
	// members run again (racePartial).
	MemberNs map[string][]int
	// Members are the race's networks (default RaceMembers()).
	Members     []RaceMember
	Regularizer model.Regularizer // default identity
	Seeds       []uint64
	Workers     int
	TestNorm    protocol.TestNorm
	Progress    io.Writer
	Shard       jobs.Shard
	ReuseOnly   bool
}

func (o *RaceOptions) defaults() {
	if len(o.Bits) == 0 {
		o.Bits = DefaultRaceBits
	}
	if o.Budget == 0 {
		o.Budget = DefaultRaceBudget
	}
	if len(o.Grid.Lambdas) == 0 {
		o.Grid = protocol.WideGrid()
	}
	if len(o.Ns) == 0 {
		o.Ns = DefaultRaceNs
	}
	if o.Regularizer == "" {
		o.Regularizer = model.RegIdentity
	}
	runDefaults(&o.Seeds, &o.Workers, &o.TestNorm, &o.Progress)
}

// RaceMember is one network of the race: a protocol variant of a network type
// with a power model, and a W_in source where the type offers one.
type RaceMember struct {
	Network protocol.Network `json:"network"`
	Win     model.WinGen     `json:"w_in_generator,omitempty"`
	// Select, when > 1, chooses the hidden units on the training rows among
	// Select candidates per unit (model.Config.Select).
	Select int `json:"select,omitempty"`
}

// Name is the member's label: the variant, with "+prbs31" for a generated
// W_in and "+sel4" for units chosen among 4 candidates each.
func (m RaceMember) Name() string {
	name := string(m.Network)
	if m.Win != model.WinStored {
		name += "+" + string(m.Win)
	}
	if m.Select > 1 {
		name += fmt.Sprintf("+sel%d", m.Select)
	}
	return name
}

// config is the member's training configuration at one grid point.
func (m RaceMember) config(n int, lambda float64, kappa int, reg model.Regularizer) model.Config {
	cfg := m.Network.Config(n, lambda, kappa)
	cfg.Win, cfg.Select, cfg.Regularizer = m.Win, m.Select, reg
	return cfg
}

// RaceMembers returns the members in registry order: every variant of the
// protocol (protocol.Networks) whose network type the power model knows
// (power.Networks: it has RTL and an estimate), once with its stored W_in
// and once more with the generated one where its traits offer it; then, for
// the types that can choose their units on the training rows, once more with
// model.ConjSelect candidates per unit.
func RaceMembers() []RaceMember {
	hw := power.Networks()
	var out, selecting []RaceMember
	for _, nw := range protocol.Networks() {
		if !slices.Contains(hw, nw.Arch()) {
			continue
		}
		out = append(out, RaceMember{Network: nw})
		if nw.Traits().GeneratedWin {
			out = append(out, RaceMember{Network: nw, Win: model.WinPRBS31})
		}
		if nw.Traits().Selects {
			selecting = append(selecting, RaceMember{Network: nw, Select: model.ConjSelect})
		}
	}
	// the selecting members last: a race stored before they joined keeps
	// its members' order, and they run alone to complete it (racePartial)
	return append(out, selecting...)
}

// ParseRaceMembers reads a comma-separated list of member names
// (RaceMember.Name) of RaceMembers; "default" stands for them all. The
// members keep the list's order, each once.
func ParseRaceMembers(list string) ([]RaceMember, error) {
	known := RaceMembers()
	var out []RaceMember
	add := func(m RaceMember) {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "default" {
			for _, m := range RaceMembers() {
				add(m)
			}
			continue
		}
		i := slices.IndexFunc(known, func(m RaceMember) bool { return m.Name() == name })
		if i < 0 {
			names := []string{"default"}
			for _, m := range known {
				names = append(names, m.Name())
			}
			return nil, fmt.Errorf("race member %q: want one of %s", name, strings.Join(names, ", "))
		}
		add(known[i])
	}
	return out, nil
}

// readoutBitsOf is the readout width member m deploys in the race of width b:
// b for a type that takes any width, the type's own otherwise.
func readoutBitsOf(m RaceMember, b int) int {
	if t := m.Network.Traits(); !t.ReadoutBits() {
		return t.Readout.Bits
	}
	return b
}

// LUTEquivalents converts resources to LUT-equivalents: LUT6 sites (with
// LUTRAM) plus LUTsPerHardBlock per DSP48E1 and per RAMB18 (BRAM36 counts
// RAMB36 + ½·RAMB18, so a RAMB36 is 2·LUTsPerHardBlock). Flip-flops are not
// counted (a slice has two per LUT).
func LUTEquivalents(r power.Resources) float64 {
	return float64(r.LUTs+r.LUTRAM) + LUTsPerHardBlock*float64(r.DSP48E1) + 2*LUTsPerHardBlock*r.BRAM36
}

// raceLUTs is the LUT-equivalent cost at P = 1 (power.Analytic) of member m
// with N neurons, κ and readout width b for k features and l classes.
func raceLUTs(m RaceMember, k, l, n, kappa, b int) (float64, error) {
	s, err := power.ShapeOf(m.Network.Arch(), k, l, kappa, readoutBitsOf(m, b))
	if err != nil {
		return 0, err
	}
	if m.Network.Traits().GeneratedWin {
		s.Win = m.Win
	}
	r, err := power.Analytic(power.Design{Shape: s, N: n, Options: plan.Options{Parallel: 1}})
	if err != nil {
		return 0, err
	}
	return LUTEquivalents(r), nil
}

// RaceReference is the budget's reference: the plain intRVFL (stored W_in) at
// N = RaceRefN, κ = RaceRefKappa, readout width b, P = 1.
func RaceReference(k, l, b int) (float64, error) {
	return raceLUTs(RaceMember{Network: protocol.IntRVFL}, k, l, RaceRefN, RaceRefKappa, b)
}

// RaceEntry is one member's choice in one race (dataset, width).
type RaceEntry struct {
	Member RaceMember `json:"member"`
	// Bits is the readout width the member deploys.
	Bits int           `json:"readout_bits"`
	Best protocol.Best `json:"best"` // Correct: summed over the training units' inner validation rows
	LUTs float64       `json:"lut_eq"`
	// Configs counts the (N, κ) within the budget the member searched.
	Configs  int     `json:"configs"`
	Accuracy float64 `json:"accuracy"` // protocol test mean over folds (or the test file) and seeds
	Std      float64 `json:"accuracy_std"`
	Chosen   bool    `json:"chosen"`
	// Impossible says why the member has no configuration within the budget.
	Impossible string `json:"impossible,omitempty"`
}

// Config is the entry's configuration as the report writes it.
func (e RaceEntry) Config() string {
	if e.Impossible != "" {
		return e.Member.Name()
	}
	return fmt.Sprintf("%s N=%d%s λ=%g", e.Member.Name(), e.Best.N, kappaTextOf(e.Member.Network, e.Best.Kappa), e.Best.Lambda)
}

// RaceWidth is the race of one readout width on one dataset.
type RaceWidth struct {
	Bits      int         `json:"bits"`
	Reference float64     `json:"reference_lut_eq"`
	Budget    float64     `json:"budget_lut_eq"`
	Entries   []RaceEntry `json:"entries"`
}

// RaceResult is one dataset's stored race.
type RaceResult struct {
	Dataset     string            `json:"dataset"`
	Fingerprint string            `json:"fingerprint"`
	Data        string            `json:"data_sha256"`
	K           int               `json:"k"`
	L           int               `json:"l"`
	Rows        int               `json:"rows"`
	ValRows     int               `json:"val_rows"` // inner validation rows, summed over the training units
	Regularizer model.Regularizer `json:"regularizer"`
	Widths      []RaceWidth       `json:"widths"`
	Seconds     float64           `json:"seconds"`
}

// RaceStudy is what RunRace returns.
type RaceStudy = Study[RaceResult, RaceOptions]

type raceJob struct {
	meta *dataset.UCIMeta
	data string
	fp   string
	cost float64
	// prev is the dataset's stored race run with fewer members (a member
	// added since) or without MemberNs; the run keeps the entries of the
	// members in keep and runs the others.
	prev *RaceResult
	keep map[RaceMember]bool
}

// nsOf is member m's N: the race's Ns with the member's MemberNs, in
// increasing order.
func (o RaceOptions) nsOf(m RaceMember) []int {
	ns := slices.Clone(o.Ns)
	for _, n := range o.MemberNs[m.Name()] {
		if !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	return ns
}

// checkMemberNs refuses MemberNs that name no member or hold an N below 1.
func (o RaceOptions) checkMemberNs(members []RaceMember) error {
	for name, ns := range o.MemberNs {
		if !slices.ContainsFunc(members, func(m RaceMember) bool { return m.Name() == name }) {
			var names []string
			for _, m := range members {
				names = append(names, m.Name())
			}
			return fmt.Errorf("race: member N for %q, which is no member (want one of %s)", name, strings.Join(names, ", "))
		}
		for _, n := range ns {
			if n < 1 {
				return fmt.Errorf("race: member %s: N=%d, want ≥ 1", name, n)
			}
		}
	}
	return nil
}

// raceFingerprint identifies a race job's settings, its members among them.
// A member's own κ grid (model.Traits.KappaGrid) is part of it when some
// member has one, so that the jobs of members without one keep their
// fingerprints.
func raceFingerprint(opt RaceOptions, members []RaceMember) string {
	parts := []any{raceKind, members, opt.Bits, opt.Budget, opt.Grid.Lambdas, opt.Grid.Kappas, opt.Ns,
		opt.Regularizer, opt.Seeds, opt.TestNorm, raceValEvery, LUTsPerHardBlock, RaceRefN, RaceRefKappa}
	grids := map[string][]int{}
	for _, m := range members {
		if g := m.Network.Traits().KappaGrid; g != nil {
			grids[m.Name()] = g
		}
	}
	if len(grids) > 0 {
		parts = append(parts, grids)
	}
	if len(opt.MemberNs) > 0 {
		parts = append(parts, opt.MemberNs)
	}
	return jobs.Fingerprint(parts...)
}

// raceJobMembers are the members of a stored race, in its order.
func raceJobMembers(r *RaceResult) []RaceMember {
	if len(r.Widths) == 0 {
		return nil
	}
	var out []RaceMember
	for _, e := range r.Widths[0].Entries {
		out = append(out, e.Member)
	}
	return out
}

// racePartial returns the dataset's stored race when the run can keep some
// of its entries, and the members whose entries it keeps (every width of
// opt.Bits holds each of its members once): a job of the same settings and
// data with a proper subset of members (its fingerprint is the one its own
// members give) keeps them all, and the new members run alone and join it;
// a job of the same settings but MemberNs (its fingerprint is the one opt
// without MemberNs gives) keeps the members MemberNs does not extend, and
// the extended ones run again. Otherwise nil. A complete job (the current
// fingerprint) is reused as it is, not here.
func racePartial(st jobs.Store, opt RaceOptions, members []RaceMember, j raceJob) (*RaceResult, map[RaceMember]bool, error) {
	var r RaceResult
	ok, err := st.LoadAny(racePath(j.meta.Name), &r)
	if !ok || err != nil || r.Data != j.data || r.Fingerprint == j.fp || len(r.Widths) != len(opt.Bits) {
		return nil, nil, err
	}
	had := raceJobMembers(&r)
	if len(had) == 0 || len(had) > len(members) {
		return nil, nil, nil
	}
	for wi, w := range r.Widths {
		if w.Bits != opt.Bits[wi] || len(w.Entries) != len(had) {
			return nil, nil, nil
		}
		for i, e := range w.Entries {
			if e.Member != had[i] {
				return nil, nil, nil
			}
		}
	}
	for _, m := range had {
		if !slices.Contains(members, m) {
			return nil, nil, nil
		}
	}
	keep := map[RaceMember]bool{}
	without := opt
	without.MemberNs = nil
	switch {
	case len(had) < len(members) && r.Fingerprint == raceFingerprint(opt, had):
		for _, m := range had {
			keep[m] = true
		}
	case len(opt.MemberNs) > 0 && r.Fingerprint == raceFingerprint(without, had):
		for _, m := range had {
			if len(opt.MemberNs[m.Name()]) == 0 {
				keep[m] = true
			}
		}
	default:
		return nil, nil, nil
	}
	return &r, keep, nil
}

// RunRace runs (or resumes) the race over the datasets.
func RunRace(ctx context.Context, opt RaceOptions) (*RaceStudy, error) {
	opt.defaults()
	start := time.Now()
	for _, b := range opt.Bits {
		if b < quant.MinBits || b > quant.MaxBits {
			return nil, fmt.Errorf("race: readout bits %d outside [%d, %d]", b, quant.MinBits, quant.MaxBits)
		}
	}
	if !(opt.Budget > 0) {
		return nil, fmt.Errorf("race: budget factor %v, want > 0", opt.Budget)
	}
	members := opt.Members
	if members == nil {
		members = RaceMembers()
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("race: no network type has a power model")
	}
	if err := opt.checkMemberNs(members); err != nil {
		return nil, err
	}
	names := opt.Datasets
	if len(names) == 0 {
		var err error
		if names, err = dataset.ListUCI(opt.DataDir); err != nil {
			return nil, fmt.Errorf("race: %w", err)
		}
	}
	out := &RaceStudy{Options: opt, Datasets: len(names)}
	st := jobs.Store{Dir: opt.OutDir}
	fp := raceFingerprint(opt, members)
	var all []raceJob
	for _, name := range names {
		meta, data, err := usable(opt.DataDir, name)
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{Dataset: name, Reason: err.Error()})
			fmt.Fprintf(opt.Progress, "skipped %s: %v\n", name, err)
			continue
		}
		n := float64(slices.Max(opt.Ns))
		m := float64(meta.TrainRows)
		j := raceJob{meta: meta, data: data, fp: fp}
		if j.prev, j.keep, err = racePartial(st, opt, members, j); err != nil {
			return nil, fmt.Errorf("race: %w", err)
		}
		run := len(members) - len(j.keep)
		j.cost = m*n*min(m, n)*float64(run*len(opt.Grid.Kappas)) + 1e6
		all = append(all, j)
	}
	todo, total, err := jobs.Resume(StageRace, opt.Shard, all, func(j raceJob) float64 { return j.cost }, opt.ReuseOnly,
		func(j raceJob) string { return j.meta.Name },
		func(j raceJob) (bool, error) {
			ok, err := reuse(st, racePath(j.meta.Name), j.fp, j.data, &out.Results, &out.Reused)
			return ok || (err == nil && opt.ReuseOnly && unloadable(opt.DataDir, j.meta.Name, &out.Skipped)), err
		})
	if err != nil {
		return nil, fmt.Errorf("race: %w", err)
	}
	fmt.Fprintf(opt.Progress, "race (%d members, widths %v, budget %g× the reference): %d datasets to run, %d reused\n",
		len(members), opt.Bits, opt.Budget, len(todo), out.Reused)
	oc := jobs.NewOutcomes(&out.Skipped, "race")
	var doneCost float64
	done := 0
	work := func(j raceJob) (*RaceResult, error) {
		r, err := raceDataset(ctx, opt, members, j)
		if err == nil {
			err = st.Save(racePath(j.meta.Name), r)
		}
		return r, err
	}
	jobs.Run(ctx, opt.Workers, todo, work, func(j raceJob, r *RaceResult, err error) {
		done++
		doneCost += j.cost
		if oc.Add(j.meta.Name, err) == jobs.Done {
			out.Results = append(out.Results, r)
			fmt.Fprintf(opt.Progress, "[%d/%d] race %s: %s (%.1fs) ETA %s\n", done, len(todo), j.meta.Name, raceLine(r), r.Seconds,
				jobs.TimeLeft(start, doneCost, total))
		}
	})
	out.WallSeconds = time.Since(start).Seconds()
	sort.Slice(out.Results, func(i, j int) bool { return out.Results[i].Dataset < out.Results[j].Dataset })
	if err := rechoose(st, out.Results); err != nil {
		return nil, fmt.Errorf("race: %w", err)
	}
	return out, oc.Err(ctx)
}

// rechoose applies the race's rule (RaceWinner) to every result, reused ones
// too: a job stores each member's search and evaluation, which the rule does
// not change, and the choice of the rule it ran under. A stored job whose
// choice differs is rewritten, so the jobs agree with the report.
func rechoose(st jobs.Store, results []*RaceResult) error {
	for _, r := range results {
		changed := false
		for wi := range r.Widths {
			es := r.Widths[wi].Entries
			was := slices.IndexFunc(es, func(e RaceEntry) bool { return e.Chosen })
			if markRaceWinner(es) != was {
				changed = true
			}
		}
		if changed {
			if err := st.Save(racePath(r.Dataset), r); err != nil {
				return fmt.Errorf("%s: rewriting the choice: %w", r.Dataset, err)
			}
		}
	}
	return nil
}

// racePath is where a dataset's race is stored in the race folder.
func racePath(ds string) string { return filepath.Join("runs", "race", ds+".json") }

// raceLine is a finished dataset's progress text: each width's winner.
func raceLine(r *RaceResult) string {
	var parts []string
	for _, w := range r.Widths {
		for _, e := range w.Entries {
			if e.Chosen {
				parts = append(parts, fmt.Sprintf("%d bits: %s → %.4f (%.0f LUT-eq)", w.Bits, e.Config(), e.Accuracy, e.LUTs))
			}
		}
	}
	return strings.Join(parts, "; ")
}

// raceUnits are a dataset's inner splits: for every training unit of the
// protocol (each fold's training rows, or the train file), every
// raceValEvery-th row validates and the others train, normalised on the
// inner training rows. No test row is in any of them.
func raceUnits(u *dataset.UCIDataset) []*protocol.Split {
	var trains [][]int
	if u.HasTestFile() {
		all := make([]int, u.Data.M())
		for i := range all {
			all[i] = i
		}
		trains = [][]int{all}
	} else {
		for _, f := range u.Folds {
			trains = append(trains, f.Train)
		}
	}
	var out []*protocol.Split
	for _, rows := range trains {
		var tr, va []int
		for i, r := range rows {
			if i%raceValEvery == raceValEvery-1 {
				va = append(va, r)
			} else {
				tr = append(tr, r)
			}
		}
		dtr, dva := u.Data.Subset(tr), u.Data.Subset(va)
		k := u.Data.K()
		norm := model.FitNormalizer(dtr.X, dtr.M(), k)
		out = append(out, &protocol.Split{K: k, L: u.Data.L(), XTrain: norm.Apply(dtr.X, dtr.M()), XVal: norm.Apply(dva.X, dva.M()),
			YTrain: dtr.Y, YVal: dva.Y, MTrain: dtr.M(), MVal: dva.M()})
	}
	return out
}

// raceDataset runs the race of one dataset for every width.
func raceDataset(ctx context.Context, opt RaceOptions, members []RaceMember, j raceJob) (*RaceResult, error) {
	start := time.Now()
	u, err := dataset.LoadUCI(opt.DataDir, j.meta.Name)
	if err != nil {
		return nil, jobs.LoadError{Err: err}
	}
	k, l := u.Data.K(), u.Data.L()
	r := &RaceResult{Dataset: j.meta.Name, Fingerprint: j.fp, Data: j.data, K: k, L: l, Rows: u.Data.M(), Regularizer: opt.Regularizer}
	units := raceUnits(u)
	for _, sp := range units {
		r.ValRows += sp.MVal
	}
	solver := ridge.Solver{Reg: opt.Regularizer.Ridge(), Threads: 1}
	for wi, b := range opt.Bits {
		ref, err := RaceReference(k, l, b)
		if err != nil {
			return nil, fmt.Errorf("race %s: reference intRVFL: %w", j.meta.Name, err)
		}
		w := RaceWidth{Bits: b, Reference: ref, Budget: opt.Budget * ref}
		for _, m := range members {
			if j.prev != nil && j.keep[m] {
				// A member the stored run has keeps its entry (its search
				// and evaluation do not depend on the other members) unless
				// MemberNs extends its grid.
				pw := j.prev.Widths[wi]
				if i := slices.IndexFunc(pw.Entries, func(e RaceEntry) bool { return e.Member == m }); i >= 0 {
					w.Entries = append(w.Entries, pw.Entries[i])
					continue
				}
			}
			e, err := raceMember(ctx, opt, u, units, solver, m, b, w.Budget)
			if err != nil {
				return nil, fmt.Errorf("race %s %s %d bits: %w", j.meta.Name, m.Name(), b, err)
			}
			w.Entries = append(w.Entries, e)
		}
		if markRaceWinner(w.Entries) < 0 {
			return nil, fmt.Errorf("race %s %d bits: no member fits the budget of %.0f LUT-equivalents", j.meta.Name, b, w.Budget)
		}
		r.Widths = append(r.Widths, w)
	}
	r.Seconds = time.Since(start).Seconds()
	if j.prev != nil {
		r.Seconds += j.prev.Seconds
	}
	return r, nil
}

// RaceWinner returns the index of the race's winner among one race's entries,
// or −1 when no member fits the budget: RacePreferred, when its validation
// accuracy is within RaceKeepSE standard errors of the best member's;
// otherwise the member with the most correct validation predictions, ties to
// fewer LUT-equivalents.
func RaceWinner(entries []RaceEntry) int {
	most := -1
	for i, e := range entries {
		if e.Impossible != "" || e.Best.ValRows == 0 {
			continue
		}
		if m := most; m < 0 || e.Best.Correct > entries[m].Best.Correct ||
			(e.Best.Correct == entries[m].Best.Correct && e.LUTs < entries[m].LUTs) {
			most = i
		}
	}
	if most < 0 {
		return -1
	}
	p := entries[most].valAccuracy()
	margin := RaceKeepSE * math.Sqrt(p*(1-p)/float64(entries[most].Best.ValRows))
	for i, e := range entries {
		if e.Member == RacePreferred && e.Impossible == "" && e.Best.ValRows > 0 && e.valAccuracy() >= p-margin {
			return i
		}
	}
	return most
}

// valAccuracy is the entry's share of correct inner validation predictions.
func (e RaceEntry) valAccuracy() float64 {
	return float64(e.Best.Correct) / float64(e.Best.ValRows)
}

// markRaceWinner sets Chosen on RaceWinner's entry only and returns its
// index (−1: none fits the budget).
func markRaceWinner(entries []RaceEntry) int {
	win := RaceWinner(entries)
	for i := range entries {
		entries[i].Chosen = i == win
	}
	return win
}

// raceMember chooses member m's (N, κ, λ) within budget by the deployed
// readout's correct predictions summed over the inner validation rows
// (protocol.Better's ties), then evaluates the choice by the protocol.
func raceMember(ctx context.Context, opt RaceOptions, u *dataset.UCIDataset, units []*protocol.Split, solver ridge.Solver,
	m RaceMember, b int, budget float64) (RaceEntry, error) {
	k, l := u.Data.K(), u.Data.L()
	bits := readoutBitsOf(m, b)
	e := RaceEntry{Member: m, Bits: bits}
	kappas := m.Network.Traits().Kappas(opt.Grid.Kappas)
	if len(kappas) == 0 {
		kappas = []int{0}
	}
	best := protocol.Best{Correct: -1}
	bestLUTs := 0.0
	var noEstimate error // the last configuration the power model could not estimate
	ns := opt.nsOf(m)
	for _, n := range ns {
		for _, kappa := range kappas {
			luts, err := raceLUTs(m, k, l, n, kappa, b)
			if err != nil {
				noEstimate = fmt.Errorf("grid point N=%d%s: %w", n, kappaTextOf(m.Network, kappa), err)
				continue // outside the power model's range: not a hardware configuration
			}
			if luts > budget {
				continue
			}
			e.Configs++
			correct := make([]int, len(opt.Grid.Lambdas))
			for ui, sp := range units {
				if err := ctx.Err(); err != nil {
					return e, err
				}
				net, err := model.NewFittedNetwork(k, m.config(n, 1, kappa, opt.Regularizer), sp.XTrain, sp.YTrain, l)
				if err != nil {
					return e, fmt.Errorf("grid point N=%d%s: %w", n, kappaTextOf(m.Network, kappa), err)
				}
				htr, hva := net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal)
				c, _, err := protocol.DeployedCounts(solver, sp, htr, hva, net.Columns(), opt.Grid.Lambdas, quant.BoundForBits(bits))
				if err != nil {
					return e, fmt.Errorf("grid point N=%d%s, training unit %d: %w", n, kappaTextOf(m.Network, kappa), ui+1, err)
				}
				for li := range correct {
					correct[li] += c[li]
				}
			}
			for li, lambda := range opt.Grid.Lambdas {
				c := protocol.Best{N: n, Lambda: lambda, Kappa: kappa, Correct: correct[li]}
				if protocol.Better(c, best) {
					best, bestLUTs = c, luts
				}
			}
		}
	}
	if best.Correct < 0 {
		e.Impossible = fmt.Sprintf("no N of %v fits %.0f LUT-equivalents", ns, budget)
		if noEstimate != nil {
			e.Impossible += fmt.Sprintf(" (no estimate for %v)", noEstimate)
		}
		return e, nil
	}
	for _, sp := range units {
		best.ValRows += sp.MVal
	}
	best.ValAccuracy = float64(best.Correct) / float64(best.ValRows)
	e.Best, e.LUTs = best, bestLUTs
	cfg := m.config(best.N, best.Lambda, best.Kappa, opt.Regularizer)
	if m.Network.Traits().ReadoutBits() {
		cfg.ReadoutBits = bits
	}
	ev, err := protocol.Evaluate(ctx, u, cfg, protocol.EvalOptions{Seeds: opt.Seeds, TestNorm: opt.TestNorm})
	if err != nil {
		return e, err
	}
	e.Accuracy, e.Std = ev.Mean, ev.Std
	return e, nil
}
