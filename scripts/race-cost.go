//go:build ignore

// Race-cost prints what the race (`hdlgen reproduce --stages race`) would
// count for a network (-arch, default the plain intRVFL with its stored W_in)
// of K features, L classes, κ (the conj's D) and a readout width (ignored by
// a type with its own) at P = 1, for each N: the LUT-equivalents of the analytic
// resource model (study.LUTEquivalents) and the race's budget for that shape,
// so a grid beyond the race's can be checked against the budget before
// anything runs.
//
//	go run scripts/race-cost.go [-arch conj] -k 11 -l 7 -kappa 1 -bits 5 -n 3000,6000
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/study"
)

func main() {
	arch := flag.String("arch", string(model.IntRVFL), "network type")
	k := flag.Int("k", 11, "features")
	l := flag.Int("l", 7, "classes")
	kappa := flag.Int("kappa", 1, "κ")
	bits := flag.Int("bits", 5, "readout width")
	ns := flag.String("n", "3000,6000", "comma-separated N")
	budget := flag.Float64("budget", study.DefaultRaceBudget, "the race's budget factor")
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "race-cost: %v\n", err)
		os.Exit(1)
	}
	ref, err := study.RaceReference(*k, *l, *bits)
	if err != nil {
		fail(err)
	}
	s, err := power.ShapeOf(model.Arch(*arch), *k, *l, *kappa, *bits)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s K=%d L=%d κ=%d %d-bit readout, P=1: budget %.0f LUT-equivalents (%g× the reference's %.0f)\n\n| N | LUT-equivalents | within the budget |\n|---|---|---|\n",
		*arch, *k, *l, *kappa, *bits, *budget*ref, *budget, ref)
	for _, f := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			fail(fmt.Errorf("-n %q: %w", f, err))
		}
		r, err := power.Analytic(power.Design{Shape: s, N: n, Options: plan.Options{Parallel: 1}})
		if err != nil {
			fail(fmt.Errorf("at N=%d: %w", n, err))
		}
		eq := study.LUTEquivalents(r)
		fmt.Printf("| %d | %.0f | %v |\n", n, eq, eq <= *budget*ref)
	}
}
