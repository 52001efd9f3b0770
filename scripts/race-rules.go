//go:build ignore

// Race-rules asks, on a finished race (`hdlgen reproduce --stages race`), what
// other choosing rules would have given from the same jobs: the race's own
// rule (study.RaceWinner: the preferred member, study.RacePreferred, unless
// another validates more than 2 standard errors above it), the member with
// the most correct validation predictions (ties to fewer LUT-equivalents),
// the same with members left out, a tolerance rule (the cheapest member
// whose validation accuracy is within f standard errors, √(p(1−p)/n), of
// the best), and each member preferred. The rules choose on validation only;
// the table gives each one's mean test accuracy and mean LUT-equivalents.
// Those rows are observations of one sample, seen after the test means. The
// last rows choose the rule out of sample: for each dataset, the rule of a
// family with the best mean test accuracy on the other datasets, applied to
// it (leave one dataset out); the family of the preferred member alone is
// how study.RacePreferred was chosen.
//
//	go run scripts/race-rules.go -race results/accuracy-race -bits 5 [-datasets A,B,…] [-baselines results/baselines] [-changes MEMBER]
//
// With the baselines folder (scripts/baselines.py), each rule's mean over the
// four-fold datasets that have a random forest is given beside the forest's
// mean on the same datasets.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/study"
)

// rule chooses among a dataset's entries: leave out the members named in
// without, then the cheapest within tolerance standard errors of the best
// validation accuracy (tolerance 0: the best, as the race).
type rule struct {
	without   []string
	tolerance float64
	// prefer, when set, is chosen unless another member's validation
	// accuracy beats it by more than tolerance standard errors (then the
	// most-correct rule chooses); a negative tolerance: prefer always.
	prefer string
	// race: the race's own rule, study.RaceWinner.
	race bool
}

func (r rule) String() string {
	switch {
	case r.race && len(r.without) > 0:
		return "the race's rule, without " + strings.Join(r.without, ", ")
	case r.race:
		return fmt.Sprintf("the race's rule: %s unless another member's validation accuracy is more than %d standard errors above it", study.RacePreferred.Name(), study.RaceKeepSE)
	case r.prefer != "" && r.tolerance < 0:
		return r.prefer + " always"
	case r.prefer != "":
		return fmt.Sprintf("%s unless another member's validation accuracy is more than %g standard error above it, then the most correct", r.prefer, r.tolerance)
	}
	s := "most correct validation predictions"
	if r.tolerance > 0 {
		s = fmt.Sprintf("fewest LUT-equivalents within %g standard error of the best validation accuracy", r.tolerance)
	}
	if len(r.without) > 0 {
		s += ", without " + strings.Join(r.without, ", ")
	}
	return s
}

func (r rule) choose(entries []study.RaceEntry) (study.RaceEntry, bool) {
	if r.race {
		es := slices.DeleteFunc(slices.Clone(entries), func(e study.RaceEntry) bool { return slices.Contains(r.without, e.Member.Name()) })
		i := study.RaceWinner(es)
		if i < 0 {
			return study.RaceEntry{}, false
		}
		return es[i], true
	}
	var es []study.RaceEntry
	for _, e := range entries {
		if e.Impossible == "" && e.Best.ValRows > 0 && !slices.Contains(r.without, e.Member.Name()) {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return study.RaceEntry{}, false
	}
	acc := func(e study.RaceEntry) float64 { return float64(e.Best.Correct) / float64(e.Best.ValRows) }
	best := 0.0
	for _, e := range es {
		best = max(best, acc(e))
	}
	margin := r.tolerance * math.Sqrt(best*(1-best)/float64(es[0].Best.ValRows))
	if r.prefer != "" {
		for _, e := range es {
			if e.Member.Name() == r.prefer && (r.tolerance < 0 || acc(e) >= best-margin) {
				return e, true
			}
		}
		return rule{}.choose(entries)
	}
	var pick study.RaceEntry
	found := false
	for _, e := range es {
		if acc(e) >= best-margin && (!found || e.LUTs < pick.LUTs) {
			pick, found = e, true
		}
	}
	return pick, true
}

func main() {
	dir := flag.String("race", "results/accuracy-race", "the race's folder (its runs/race/*.json)")
	bits := flag.Int("bits", 5, "readout width")
	only := flag.String("datasets", "", "only these datasets (comma-separated; default every job): a rule chosen on some datasets is checked on others")
	baselines := flag.String("baselines", "results/baselines", "the baselines' folder (scripts/baselines.py; empty: no comparison)")
	changes := flag.String("changes", "", "a member: also list the datasets whose race choice it changes (the race's rule with and without it)")
	flag.Parse()
	keep := func(name string) bool { return *only == "" || slices.Contains(strings.Split(*only, ","), name) }
	paths, err := filepath.Glob(filepath.Join(*dir, "runs", "race", "*.json"))
	if err != nil || len(paths) == 0 {
		fmt.Fprintf(os.Stderr, "race-rules: no race jobs under %s: %v\n", *dir, err)
		os.Exit(1)
	}
	var widths []study.RaceWidth
	var names []string          // widths[i]'s dataset
	forest := map[int]float64{} // index in widths → the random forest's accuracy, four-fold datasets only
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "race-rules: %v\n", err)
			os.Exit(1)
		}
		var r study.RaceResult
		if err := json.Unmarshal(b, &r); err != nil {
			fmt.Fprintf(os.Stderr, "race-rules: %s: %v\n", p, err)
			os.Exit(1)
		}
		for _, w := range r.Widths {
			if w.Bits == *bits && keep(r.Dataset) {
				if acc, ok := fourFoldForest(*baselines, r.Dataset); ok {
					forest[len(widths)] = acc
				}
				widths = append(widths, w)
				names = append(names, r.Dataset)
			}
		}
	}
	if len(widths) == 0 {
		fmt.Fprintf(os.Stderr, "race-rules: no %d-bit race job under %s for -datasets %q\n", *bits, *dir, *only)
		os.Exit(1)
	}
	rules := []rule{{race: true}}
	if *changes != "" {
		rules = append(rules, rule{race: true, without: []string{*changes}})
	}
	rules = append(rules, []rule{{}, {without: []string{"intrvfl2"}}, {tolerance: 0.5}, {tolerance: 0.5, without: []string{"intrvfl2"}},
		{tolerance: 1}, {prefer: "intrvfl", tolerance: -1}, {prefer: "intrvfl", tolerance: 1}, {prefer: "intrvfl", tolerance: 2},
		{prefer: "conj", tolerance: -1}, {prefer: "conj", tolerance: 2}, {prefer: "intconj", tolerance: -1}, {prefer: "intconj", tolerance: 2}}...)
	// The members choosing their units, where the jobs have them.
	for _, m := range study.RaceMembers() {
		if m.Select > 1 && slices.ContainsFunc(widths[0].Entries, func(e study.RaceEntry) bool { return e.Member == m }) {
			rules = append(rules, rule{prefer: m.Name(), tolerance: -1}, rule{prefer: m.Name(), tolerance: 2})
		}
	}
	fmt.Printf("%d datasets, %d-bit readout\n\n| rule | mean accuracy | mean LUT-equivalents | mean on the %d four-fold datasets with a forest |\n|---|---|---|---|\n",
		len(widths), *bits, len(forest))
	for _, r := range rules {
		var acc, luts, four float64
		n := 0
		for i, w := range widths {
			if e, ok := r.choose(w.Entries); ok {
				acc += e.Accuracy
				luts += e.LUTs
				n++
				if _, ok := forest[i]; ok {
					four += e.Accuracy
				}
			}
		}
		fmt.Printf("| %s | %.4f | %.0f | %.4f |\n", r, acc/float64(n), luts/float64(n), four/float64(len(forest)))
	}
	fmt.Printf("\nThe rule chosen out of sample: for each dataset, the rule of a family with the best mean test accuracy on the other %d datasets (leave one dataset out):\n\n", len(widths)-1)
	fmt.Printf("| family | mean accuracy | mean on the %d four-fold datasets | rules chosen (datasets × rule) |\n|---|---|---|---|\n", len(forest))
	printLeaveOneOut(widths, forest, []float64{2}, false)
	printLeaveOneOut(widths, forest, []float64{-1, 1, 2, 3}, true)
	printLeaveOneOutByGroup(widths, forest)
	if len(forest) > 0 {
		var sum float64
		for _, a := range forest {
			sum += a
		}
		fmt.Printf("\nThe random forest (500 trees, %s) on the same %d four-fold datasets: %.4f\n", *baselines, len(forest), sum/float64(len(forest)))
	}
	printKinds(widths, forest)
	if *changes != "" {
		printChanges(widths, names, forest, *changes)
	}
}

// printKinds gives the race's mean and the oracle's (each dataset's best
// member by test accuracy, a bound) on the four-fold datasets with a forest
// and on the others (the two-file datasets, when the baselines cover every
// four-fold one).
func printKinds(widths []study.RaceWidth, forest map[int]float64) {
	if len(forest) == 0 {
		return
	}
	race := rule{race: true}
	var sum, best [2]float64
	var n [2]int
	for i, w := range widths {
		k := 1
		if _, ok := forest[i]; ok {
			k = 0
		}
		e, ok := race.choose(w.Entries)
		if !ok {
			continue
		}
		top := e.Accuracy
		for _, o := range w.Entries {
			top = max(top, o.Accuracy)
		}
		sum[k] += e.Accuracy
		best[k] += top
		n[k]++
	}
	fmt.Printf("\n| datasets | count | the race | oracle (best member by test accuracy, a bound) |\n|---|---|---|---|\n")
	for k, label := range []string{"four-fold, with a forest", "the others (two-file)"} {
		if n[k] > 0 {
			fmt.Printf("| %s | %d | %.4f | %.4f |\n", label, n[k], sum[k]/float64(n[k]), best[k]/float64(n[k]))
		}
	}
}

// printChanges lists the datasets whose race choice member changes: the
// race's rule with every member against the rule without member.
func printChanges(widths []study.RaceWidth, names []string, forest map[int]float64, member string) {
	with, without := rule{race: true}, rule{race: true, without: []string{member}}
	fmt.Printf("\nDatasets whose choice %s changes (the race's rule with and without it):\n\n", member)
	fmt.Println("| dataset | without | accuracy | with | accuracy | change | random forest |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var gain float64
	n := 0
	for i, w := range widths {
		a, okA := with.choose(w.Entries)
		b, okB := without.choose(w.Entries)
		if !okA || !okB || a.Member == b.Member {
			continue
		}
		rf := "—"
		if acc, ok := forest[i]; ok {
			rf = fmt.Sprintf("%.4f", acc)
		}
		fmt.Printf("| %s | %s (%.0f LUT-eq) | %.4f | %s (%.0f LUT-eq) | %.4f | %+.1f | %s |\n",
			names[i], b.Config(), b.LUTs, b.Accuracy, a.Config(), a.LUTs, a.Accuracy, 100*(a.Accuracy-b.Accuracy), rf)
		gain += a.Accuracy - b.Accuracy
		n++
	}
	fmt.Printf("\n%d of %d datasets change; the mean change over them %+.2f points, over all %+.2f.\n",
		n, len(widths), 100*gain/float64(max(n, 1)), 100*gain/float64(len(widths)))
}

// printLeaveOneOut chooses the rule itself out of sample: for each dataset,
// among the rules "member X preferred unless another validates more than t
// standard errors above it" (every member X; t from tolerances, -1: always X)
// and, with mostCorrect, the most-correct rule, the one with the highest mean
// test accuracy over the other datasets, applied to the held-out one. No
// dataset's test rows choose its own rule, so the mean is an estimate of the
// rule-choosing procedure (leave one dataset out), not an observation after
// the fact.
func printLeaveOneOut(widths []study.RaceWidth, forest map[int]float64, tolerances []float64, mostCorrect bool) {
	var cands []rule
	if mostCorrect {
		cands = append(cands, rule{})
	}
	for _, e := range widths[0].Entries {
		for _, t := range tolerances {
			cands = append(cands, rule{prefer: e.Member.Name(), tolerance: t})
		}
	}
	family := fmt.Sprintf("each member preferred, %g standard errors", tolerances[0])
	if len(tolerances) > 1 {
		family = fmt.Sprintf("each member preferred with standard errors in %v (-1: always)", tolerances)
	}
	if mostCorrect {
		family += ", and the most correct"
	}
	leaveOneOut(widths, forest, cands, family, false)
}

// printLeaveOneOutByGroup is printLeaveOneOut's family of the preferred
// member (2 standard errors) chosen within a group: for a four-fold dataset
// with a forest, on the other such datasets; for any other (the two-file
// datasets), on the other datasets of that kind.
func printLeaveOneOutByGroup(widths []study.RaceWidth, forest map[int]float64) {
	var cands []rule
	for _, e := range widths[0].Entries {
		cands = append(cands, rule{prefer: e.Member.Name(), tolerance: 2})
	}
	leaveOneOut(widths, forest, cands, "each member kept, 2 standard errors, chosen on the datasets of the held-out one's kind (four-fold with a forest, or not)", true)
}

// leaveOneOut prints the table row of the candidate rules chosen for each
// dataset by their summed test accuracy on the other datasets (with byKind,
// only those of the same kind: four-fold with a forest, or not); a rule
// without a choice on a dataset it would be summed or applied on is not a
// candidate there.
func leaveOneOut(widths []study.RaceWidth, forest map[int]float64, cands []rule, family string, byKind bool) {
	// acc[c][i]: candidate c's test accuracy on dataset i (NaN: no choice).
	acc := make([][]float64, len(cands))
	for c, r := range cands {
		acc[c] = make([]float64, len(widths))
		for i, w := range widths {
			acc[c][i] = math.NaN()
			if e, ok := r.choose(w.Entries); ok {
				acc[c][i] = e.Accuracy
			}
		}
	}
	fourFold := func(i int) bool { _, ok := forest[i]; return ok }
	var sum, four float64
	picked := map[string]int{}
	for i := range widths {
		best, bestSum := -1, 0.0
		for c := range cands {
			s := 0.0
			for j := range widths {
				if j != i && (!byKind || fourFold(j) == fourFold(i)) {
					s += acc[c][j]
				}
			}
			if !math.IsNaN(s) && !math.IsNaN(acc[c][i]) && (best < 0 || s > bestSum) {
				best, bestSum = c, s
			}
		}
		sum += acc[best][i]
		if fourFold(i) {
			four += acc[best][i]
		}
		label := cands[best].String()
		if byKind {
			kind := "two-file"
			if fourFold(i) {
				kind = "four-fold"
			}
			label = kind + ": " + cands[best].prefer + " kept"
		}
		picked[label]++
	}
	var chose []string
	for _, k := range slices.Sorted(maps.Keys(picked)) {
		chose = append(chose, fmt.Sprintf("%d × %s", picked[k], k))
	}
	fmt.Printf("| %d rules: %s | %.4f | %.4f | %s |\n", len(cands), family, sum/float64(len(widths)), four/float64(max(len(forest), 1)), strings.Join(chose, "; "))
}

// fourFoldForest is the random forest's accuracy on a four-fold dataset from
// the baselines' folder; false for a train/test dataset, one without a
// forest, or no folder.
func fourFoldForest(dir, name string) (float64, bool) {
	if dir == "" {
		return 0, false
	}
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return 0, false
	}
	var r struct {
		Protocol string `json:"protocol"`
		Models   map[string]struct {
			Accuracy *float64 `json:"accuracy"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		fmt.Fprintf(os.Stderr, "race-rules: %s: %v\n", name, err)
		os.Exit(1)
	}
	rf, ok := r.Models["rf"]
	if r.Protocol != "4-fold" || !ok || rf.Accuracy == nil {
		return 0, false
	}
	return *rf.Accuracy, true
}
