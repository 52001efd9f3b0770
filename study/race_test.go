package study

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/protocol"
)

// TestRaceMembers checks that the members come from the registries: every
// network type with a power model races under its own name, with a generated
// W_in exactly where its traits offer one and choosing its units on the
// training rows exactly where they can, and nothing without a power model
// races; the preferred member is one of them.
func TestRaceMembers(t *testing.T) {
	members := RaceMembers()
	var names []string
	for _, m := range members {
		names = append(names, m.Name())
		if !slices.Contains(power.Networks(), m.Network.Arch()) {
			t.Errorf("member %s: network type %s has no power model", m.Name(), m.Network.Arch())
		}
	}
	for _, arch := range power.Networks() {
		tr, err := model.TraitsOf(arch)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(names, string(arch)) {
			t.Errorf("network type %s has a power model but does not race (members %v)", arch, names)
		}
		if gen := slices.Contains(names, string(arch)+"+"+string(model.WinPRBS31)); gen != tr.GeneratedWin {
			t.Errorf("network type %s: generated-W_in member %v, trait %v", arch, gen, tr.GeneratedWin)
		}
		if sel := slices.Contains(names, fmt.Sprintf("%s+sel%d", arch, model.ConjSelect)); sel != tr.Selects {
			t.Errorf("network type %s: member choosing its units %v, trait %v", arch, sel, tr.Selects)
		}
	}
	if !slices.Contains(members, RacePreferred) {
		t.Errorf("the preferred member %s does not race (members %v)", RacePreferred.Name(), names)
	}
	for _, want := range []string{"intrvfl", "intrvfl+prbs31", "rvfl8", "conj+sel4"} { // today's members at least
		if !slices.Contains(names, want) {
			t.Errorf("members %v lack %s", names, want)
		}
	}
}

// writeRaceCollection writes a collection of two small synthetic datasets:
// "blobs" (4-fold, K=3, L=3, 96 rows) and "pair" (a train file of 64 rows and
// a test file of 32, K=2, L=2), classes separated along the features.
func writeRaceCollection(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows := func(m, k, l, salt int) string {
		var b strings.Builder
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "\tf%d", i)
		}
		b.WriteString("\tclase\n")
		for r := 0; r < m; r++ {
			c := (r*r + r/3) % l // not periodic in r: positions in a list tell rows apart
			fmt.Fprintf(&b, "%d", r+1)
			for i := 0; i < k; i++ {
				noise := math.Sin(float64(7*r+13*i+salt)) * 0.8
				fmt.Fprintf(&b, "\t%.4f", float64(c)*float64(i+1)+noise)
			}
			fmt.Fprintf(&b, "\t%d\n", c)
		}
		return b.String()
	}
	seq := func(from, to int) string {
		var f []string
		for i := from; i < to; i++ {
			f = append(f, fmt.Sprint(i))
		}
		return strings.Join(f, " ")
	}
	write("blobs/blobs.txt", "n_entradas= 3\nn_clases= 3\nn_arquivos= 1\nfich1= blobs_R.dat\nn_patrons1= 96\nn_patrons_entrena= 48\nn_patrons_valida= 48\nn_conxuntos= 1\n")
	write("blobs/blobs_R.dat", rows(96, 3, 3, 0))
	write("blobs/conxuntos.dat", seq(0, 48)+"\n"+seq(48, 96)+"\n")
	var kf strings.Builder
	for f := 0; f < 4; f++ {
		lo, hi := 24*f, 24*(f+1)
		fmt.Fprintf(&kf, "%s\n%s\n", strings.TrimSpace(seq(0, lo)+" "+seq(hi, 96)), seq(lo, hi))
	}
	write("blobs/conxuntos_kfold.dat", kf.String())
	write("pair/pair.txt", "n_entradas= 2\nn_clases= 2\nn_arquivos= 2\nfich1= pair_train_R.dat\nn_patrons1= 64\nfich2= pair_test_R.dat\nn_patrons2= 32\nn_patrons_entrena= 32\nn_patrons_valida= 32\nn_conxuntos= 1\n")
	write("pair/pair_train_R.dat", rows(64, 2, 2, 1))
	write("pair/pair_test_R.dat", rows(32, 2, 2, 2))
	write("pair/conxuntos.dat", seq(0, 32)+"\n"+seq(32, 64)+"\n")
	write("pair/conxuntos_kfold.dat", "0 1\n2 3\n0 2\n1 3\n0 3\n1 2\n1 2\n0 3\n")
	return dir
}

// raceTestOptions is a small race for the tests.
func raceTestOptions(dir, out string, names []string) RaceOptions {
	return RaceOptions{DataDir: dir, OutDir: out, Datasets: names, Bits: []int{3, 5}, Ns: []int{20, 40},
		Grid: protocol.Grid{Lambdas: []float64{1.0 / 16, 1, 64}, Kappas: []int{1, 3}}, Seeds: []uint64{0, 1}, Workers: 1}
}

// checkRace checks what holds by construction in every race: one winner per
// dataset and width, the winner has the most correct validation predictions
// (ties to fewer LUT-equivalents), every choice is within the budget and
// from the grid, and the accuracies are accuracies.
func checkRace(t *testing.T, s *RaceStudy) {
	t.Helper()
	o := s.Options
	for _, r := range s.Results {
		if len(r.Widths) != len(o.Bits) {
			t.Fatalf("%s: %d widths, want %d", r.Dataset, len(r.Widths), len(o.Bits))
		}
		for wi, w := range r.Widths {
			if w.Bits != o.Bits[wi] || w.Budget != o.Budget*w.Reference || !(w.Reference > 0) {
				t.Errorf("%s: width %+v", r.Dataset, w)
			}
			if len(w.Entries) != len(RaceMembers()) {
				t.Errorf("%s %d bits: %d entries, want one per member", r.Dataset, w.Bits, len(w.Entries))
			}
			var chosen []RaceEntry
			for _, e := range w.Entries {
				if e.Chosen {
					chosen = append(chosen, e)
				}
			}
			if len(chosen) != 1 {
				t.Fatalf("%s %d bits: %d chosen, want 1", r.Dataset, w.Bits, len(chosen))
			}
			c := chosen[0]
			bestAcc := 0.0
			for _, e := range w.Entries {
				if e.Impossible == "" {
					bestAcc = max(bestAcc, e.valAccuracy())
				}
			}
			margin := RaceKeepSE * math.Sqrt(bestAcc*(1-bestAcc)/float64(r.ValRows))
			for _, e := range w.Entries {
				if e.Impossible != "" {
					continue
				}
				// The preferred member wins within the margin; otherwise
				// nothing has more correct predictions than the winner, or
				// as many at fewer LUT-equivalents.
				if kept := e.valAccuracy() >= bestAcc-margin; e.Member == RacePreferred && kept != (c.Member == RacePreferred) {
					t.Errorf("%s %d bits: chose %s; the preferred %s validates %.4f, best %.4f, margin %.4f", r.Dataset, w.Bits,
						c.Config(), e.Config(), e.valAccuracy(), bestAcc, margin)
				}
				if c.Member != RacePreferred && (e.Best.Correct > c.Best.Correct || (e.Best.Correct == c.Best.Correct && e.LUTs < c.LUTs)) {
					t.Errorf("%s %d bits: %s (%d correct, %.0f LUT-eq) beats the chosen %s (%d, %.0f)", r.Dataset, w.Bits,
						e.Config(), e.Best.Correct, e.LUTs, c.Config(), c.Best.Correct, c.LUTs)
				}
				if e.LUTs > w.Budget || !slices.Contains(o.Ns, e.Best.N) || !slices.Contains(o.Grid.Lambdas, e.Best.Lambda) {
					t.Errorf("%s %d bits: %s at %.0f LUT-eq, budget %.0f", r.Dataset, w.Bits, e.Config(), e.LUTs, w.Budget)
				}
				if !(e.Accuracy >= 0 && e.Accuracy <= 1) || e.Best.ValRows != r.ValRows {
					t.Errorf("%s %d bits: %s accuracy %v, %d validation rows of %d", r.Dataset, w.Bits, e.Config(), e.Accuracy, e.Best.ValRows, r.ValRows)
				}
			}
		}
	}
}

// TestRaceSynthetic runs the race on two synthetic datasets (one 4-fold, one
// two-file): the invariants, the inner splits, the report, a rerun that
// reuses everything, and a budget that nothing fits.
func TestRaceSynthetic(t *testing.T) {
	dir := writeRaceCollection(t)
	out := t.TempDir()
	opt := raceTestOptions(dir, out, nil)
	s, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 2 || len(s.Skipped) != 0 {
		t.Fatalf("%d results, skipped %v", len(s.Results), s.Skipped)
	}
	checkRace(t, s)
	// blobs: 4 folds of 72 training rows, 18 of them validate in each; pair:
	// the train file's 64 rows, 16 validate.
	got := map[string]int{}
	for _, r := range s.Results {
		got[r.Dataset] = r.ValRows
	}
	if diff := cmp.Diff(map[string]int{"blobs": 72, "pair": 16}, got); diff != "" {
		t.Errorf("validation rows (-want +got):\n%s", diff)
	}
	sum, err := WriteRaceReport(out, s, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	tsv, err := os.ReadFile(filepath.Join(out, "accuracy.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(tsv)), "\n")
	if lines[0] != "dataset\tconfig\treadout_bits\taccuracy\tlut_eq\tchosen" {
		t.Errorf("header %q", lines[0])
	}
	if chosen := strings.Count(string(tsv), "\ttrue\n"); chosen != 2*len(opt.Bits) {
		t.Errorf("%d chosen rows, want one per dataset and width (%d):\n%s", chosen, 2*len(opt.Bits), tsv)
	}
	for _, b := range opt.Bits {
		if _, err := os.Stat(filepath.Join(out, fmt.Sprintf("accuracy-vs-luts-%dbit.svg", b))); err != nil {
			t.Error(err)
		}
	}
	if len(sum.Widths) != 2 || sum.Widths[0].Datasets != 2 || sum.Widths[0].Oracle < sum.Widths[0].Accuracy {
		t.Errorf("summary widths %+v", sum.Widths)
	}
	again, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != 2 || !cmp.Equal(again.Results, s.Results) {
		t.Errorf("rerun reused %d of 2, same results %v", again.Reused, cmp.Equal(again.Results, s.Results))
	}
	tiny := opt
	tiny.OutDir, tiny.Budget = t.TempDir(), 1e-3
	if _, err := RunRace(context.Background(), tiny); err == nil || !strings.Contains(err.Error(), "fits the budget") {
		t.Errorf("a budget nothing fits: err %v", err)
	}
}

// TestRaceCompletesStoredJobs: a stored race whose members are a proper
// subset of today's (a member added since) is completed, not run again: its
// entries are kept as stored and only the missing member runs, and the
// completed job is the job a fresh run writes.
func TestRaceCompletesStoredJobs(t *testing.T) {
	dir := writeRaceCollection(t)
	out := t.TempDir()
	opt := raceTestOptions(dir, out, []string{"pair"})
	fresh, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	members := RaceMembers()
	missing := members[len(members)-1]
	// The job as a run without the last member wrote it, one kept entry
	// marked so that a rerun of that member would show.
	old := *fresh.Results[0]
	old.Widths = nil
	for _, w := range fresh.Results[0].Widths {
		w.Entries = slices.DeleteFunc(slices.Clone(w.Entries), func(e RaceEntry) bool { return e.Member == missing })
		markRaceWinner(w.Entries)
		old.Widths = append(old.Widths, w)
	}
	const mark = 0.123456
	old.Widths[0].Entries[0].Accuracy = mark
	withDefaults := opt
	withDefaults.defaults()
	old.Fingerprint = raceFingerprint(withDefaults, members[:len(members)-1])
	st := jobs.Store{Dir: out}
	if err := st.Save(racePath("pair"), &old); err != nil {
		t.Fatal(err)
	}
	again, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != 0 || len(again.Results) != 1 {
		t.Fatalf("reused %d, %d results: want the stored job completed, not reused as it is", again.Reused, len(again.Results))
	}
	got := again.Results[0]
	if got.Widths[0].Entries[0].Accuracy != mark {
		t.Errorf("the kept entry was run again (accuracy %v, stored %v)", got.Widths[0].Entries[0].Accuracy, mark)
	}
	got.Widths[0].Entries[0].Accuracy = fresh.Results[0].Widths[0].Entries[0].Accuracy
	if diff := cmp.Diff(fresh.Results[0], got, cmpopts.IgnoreFields(RaceResult{}, "Seconds"), cmpopts.IgnoreFields(RaceEntry{}, "Chosen")); diff != "" {
		t.Errorf("completed job differs from a fresh run's (-fresh +completed):\n%s", diff)
	}
	for wi, w := range got.Widths {
		if RaceWinner(w.Entries) != RaceWinner(fresh.Results[0].Widths[wi].Entries) {
			t.Errorf("%d bits: the completed job chooses another member", w.Bits)
		}
	}
	// A stored job of other settings is not completed: it runs again whole.
	other := old
	other.Fingerprint = "0000000000000000"
	if err := st.Save(racePath("pair"), &other); err != nil {
		t.Fatal(err)
	}
	third, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if third.Results[0].Widths[0].Entries[0].Accuracy == mark {
		t.Errorf("a job of other settings was completed instead of run again")
	}
}

// TestRaceExtendsOneMembersGrid: with MemberNs a stored race keeps the
// entries of the members it does not extend and runs the extended member
// again over its larger grid; the result equals a fresh run of the extended
// race. Member N for no member is refused.
func TestRaceExtendsOneMembersGrid(t *testing.T) {
	dir := writeRaceCollection(t)
	out := t.TempDir()
	opt := raceTestOptions(dir, out, []string{"pair"})
	if _, err := RunRace(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	members := RaceMembers()
	ext := members[len(members)-1]
	// Mark every kept entry, so that a rerun of one would show.
	st := jobs.Store{Dir: out}
	var stored RaceResult
	if ok, err := st.LoadAny(racePath("pair"), &stored); !ok || err != nil {
		t.Fatalf("stored race: %v, %v", ok, err)
	}
	const mark = 0.123456
	for wi := range stored.Widths {
		for ei := range stored.Widths[wi].Entries {
			stored.Widths[wi].Entries[ei].Accuracy = mark
		}
	}
	if err := st.Save(racePath("pair"), &stored); err != nil {
		t.Fatal(err)
	}
	wider := opt
	wider.MemberNs = map[string][]int{ext.Name(): {60}}
	got, err := RunRace(context.Background(), wider)
	if err != nil {
		t.Fatal(err)
	}
	if got.Reused != 0 || len(got.Results) != 1 {
		t.Fatalf("reused %d, %d results: want the stored job completed", got.Reused, len(got.Results))
	}
	freshOpt := wider
	freshOpt.OutDir = t.TempDir()
	fresh, err := RunRace(context.Background(), freshOpt)
	if err != nil {
		t.Fatal(err)
	}
	for wi, w := range got.Results[0].Widths {
		for ei, e := range w.Entries {
			want := fresh.Results[0].Widths[wi].Entries[ei]
			switch {
			case e.Member == ext && e.Accuracy == mark:
				t.Errorf("%d bits: the extended member %s was not run again", w.Bits, ext.Name())
			case e.Member == ext && e.Configs != want.Configs:
				t.Errorf("%d bits: %s scored %d configurations, a fresh run %d", w.Bits, ext.Name(), e.Configs, want.Configs)
			case e.Member == ext && e.Configs <= stored.Widths[wi].Entries[ei].Configs:
				t.Errorf("%d bits: %s scored %d configurations, before the extension %d: N=60 not in its grid", w.Bits, ext.Name(), e.Configs, stored.Widths[wi].Entries[ei].Configs)
			case e.Member != ext && e.Accuracy != mark:
				t.Errorf("%d bits: %s was run again (accuracy %v)", w.Bits, e.Member.Name(), e.Accuracy)
			}
			if e.Member == ext {
				if diff := cmp.Diff(want, e, cmpopts.IgnoreFields(RaceEntry{}, "Chosen")); diff != "" {
					t.Errorf("%d bits: the extended member differs from a fresh run's (-fresh +extended):\n%s", w.Bits, diff)
				}
			}
		}
	}
	bad := opt
	bad.MemberNs = map[string][]int{"no-such-member": {60}}
	if _, err := RunRace(context.Background(), bad); err == nil || !strings.Contains(err.Error(), `"no-such-member", which is no member`) {
		t.Errorf("member N for no member: err %v", err)
	}
}

// TestRaceUnits checks the inner splits: every validation and training row
// of a unit is a training row of its fold, never a test row, and every
// raceValEvery-th one validates.
func TestRaceUnits(t *testing.T) {
	dir := writeRaceCollection(t)
	u, err := dataset.LoadUCI(dir, "blobs")
	if err != nil {
		t.Fatal(err)
	}
	units := raceUnits(u)
	if len(units) != len(u.Folds) {
		t.Fatalf("%d units for %d folds", len(units), len(u.Folds))
	}
	for f, sp := range units {
		n := len(u.Folds[f].Train)
		if sp.MVal != n/raceValEvery || sp.MTrain != n-n/raceValEvery {
			t.Errorf("fold %d: %d training and %d validation rows of the fold's %d", f+1, sp.MTrain, sp.MVal, n)
		}
		// The rows of a fold's test part are labelled in turn like the others;
		// the validation labels must be those of the training list's positions.
		var want []int
		for i, r := range u.Folds[f].Train {
			if i%raceValEvery == raceValEvery-1 {
				want = append(want, u.Data.Y[r])
			}
		}
		if diff := cmp.Diff(want, sp.YVal); diff != "" {
			t.Errorf("fold %d validation labels (-want +got):\n%s", f+1, diff)
		}
	}
}

// TestRaceCollection races on two small collection datasets (one with a
// separate test file) and checks the invariants and that the winner's test
// accuracy is the protocol's evaluation of its configuration.
func TestRaceCollection(t *testing.T) {
	dir := collection(t)
	opt := raceTestOptions(dir, t.TempDir(), []string{"balloons", "hayes-roth"})
	opt.Bits, opt.Regularizer, opt.TestNorm = []int{5}, model.RegIdentity, protocol.TestNormAuto
	s, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 2 {
		t.Fatalf("%d results, skipped %v", len(s.Results), s.Skipped)
	}
	checkRace(t, s)
	for _, r := range s.Results {
		u, err := dataset.LoadUCI(dir, r.Dataset)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Widths[0].Entries {
			if !e.Chosen {
				continue
			}
			cfg := e.Member.config(e.Best.N, e.Best.Lambda, e.Best.Kappa, model.RegIdentity)
			if e.Member.Network.Traits().ReadoutBits() {
				cfg.ReadoutBits = 5
			}
			ev, err := protocol.EvaluateBaseline(context.Background(), u, cfg, protocol.EvalOptions{Seeds: opt.Seeds, TestNorm: opt.TestNorm})
			if err != nil {
				t.Fatal(err)
			}
			if ev.Mean != e.Accuracy {
				t.Errorf("%s: %s accuracy %v, the protocol's baseline evaluation %v", r.Dataset, e.Config(), e.Accuracy, ev.Mean)
			}
		}
	}
}

// TestRaceWinner checks the race's rule on hand-made races of 400 inner
// validation rows: the preferred member stays unless another member validates
// more than two standard errors above it.
func TestRaceWinner(t *testing.T) {
	entry := func(m RaceMember, correct int, luts float64) RaceEntry {
		return RaceEntry{Member: m, Best: protocol.Best{Correct: correct, ValRows: 400}, LUTs: luts}
	}
	impossible := func(m RaceMember) RaceEntry { return RaceEntry{Member: m, Impossible: "no N fits"} }
	plain, prbs := RacePreferred, RaceMember{Network: protocol.IntRVFL, Win: model.WinPRBS31} // plain: the preferred
	deep, rvfl8 := RaceMember{Network: protocol.Network(model.IntRVFL2)}, RaceMember{Network: protocol.RVFL8}
	tests := []struct {
		name    string
		entries []RaceEntry
		want    int
	}{
		// 0.775 on 400 rows: one standard error 0.0209, so 0.75 is within two.
		{"kept within two standard errors", []RaceEntry{entry(plain, 300, 600), entry(deep, 310, 2000)}, 0},
		// 0.80: one standard error 0.02, so 0.75 is 2.5 below.
		{"left beyond two standard errors", []RaceEntry{entry(plain, 300, 600), entry(deep, 320, 2000)}, 1},
		{"kept over a cheaper equal member", []RaceEntry{entry(prbs, 300, 500), entry(plain, 300, 600)}, 1},
		{"kept when it validates best", []RaceEntry{entry(plain, 330, 600), entry(deep, 320, 2000)}, 0},
		{"most correct without the preferred", []RaceEntry{impossible(plain), entry(prbs, 290, 500), entry(rvfl8, 300, 900)}, 2},
		{"ties to fewer LUT-equivalents", []RaceEntry{impossible(plain), entry(rvfl8, 300, 900), entry(prbs, 300, 500)}, 2},
		{"nothing fits", []RaceEntry{impossible(plain), impossible(deep)}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RaceWinner(tc.entries); got != tc.want {
				t.Errorf("RaceWinner = %d, want %d", got, tc.want)
			}
			if got := markRaceWinner(tc.entries); got != tc.want {
				t.Fatalf("markRaceWinner = %d, want %d", got, tc.want)
			}
			for i, e := range tc.entries {
				if e.Chosen != (i == tc.want) {
					t.Errorf("entry %d chosen %v", i, e.Chosen)
				}
			}
		})
	}
}

// TestRaceNamedMembers: --race-members names members ("default": them
// all, each once); a stored race of fewer members is completed by the
// missing member alone (here the conj with chosen units), whose entry
// trains with Select and is named for it, and the summary lists the
// members. Unknown names are refused with the known ones.
func TestRaceNamedMembers(t *testing.T) {
	members, err := ParseRaceMembers("default,conj+sel4,conj")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(RaceMembers(), members); diff != "" {
		t.Fatalf("members (-want +got):\n%s", diff)
	}
	fewer, err := ParseRaceMembers("conj,intconj,intrvfl,intrvfl+prbs31,intrvfl2,rvfl8")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(members[:len(members)-1], fewer); diff != "" {
		t.Fatalf("the members but the last (-want +got):\n%s", diff)
	}
	if _, err := ParseRaceMembers("default,conj+sel9"); err == nil || !strings.Contains(err.Error(), "conj+sel4") {
		t.Errorf("an unknown member: error %v, want one naming the known members", err)
	}
	dir := writeRaceCollection(t)
	out := t.TempDir()
	opt := raceTestOptions(dir, out, []string{"pair"})
	opt.Members = fewer
	first, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	const mark = 0.123456
	st := jobs.Store{Dir: out}
	stored := *first.Results[0]
	stored.Widths[0].Entries[0].Accuracy = mark
	if err := st.Save(racePath("pair"), &stored); err != nil {
		t.Fatal(err)
	}
	opt.Members = members
	again, err := RunRace(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	got := again.Results[0].Widths[0].Entries
	if len(got) != len(members) || got[0].Accuracy != mark {
		t.Fatalf("%d entries, first accuracy %v: want %d, the stored entries kept", len(got), got[0].Accuracy, len(members))
	}
	sel := got[len(got)-1]
	if sel.Member.Name() != "conj+sel4" || sel.Impossible != "" || sel.Accuracy <= 0 {
		t.Errorf("the optional member's entry: %+v", sel)
	}
	sum, err := WriteRaceReport(out, again, "hdlgen reproduce --race-members default,conj+sel4", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sum.Members); n != len(members) || sum.Members[n-1] != "conj+sel4" {
		t.Errorf("summary members %v", sum.Members)
	}
}
