package cli

import (
	"fmt"
	"math"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Ranged flags. A number flag whose range is part of its declaration
// (intIn, floatAtLeast) is checked by the root's pre-run, before the command
// does any work and before its outputs are checked (checkFlagRanges): a value
// outside the range is a usage error naming the flag and the range, and no
// value silently stands for the default. TestOutOfRangeFlags holds the
// declared flags to it.

// ranged is a flag value that knows its range.
type ranged interface {
	pflag.Value
	checkRange(label string) error
}

// rangedInt is an int flag's value that must lie in [lo, hi].
type rangedInt struct {
	p      *int
	lo, hi int
}

func (r *rangedInt) String() string { return strconv.Itoa(*r.p) }
func (r *rangedInt) Type() string   { return "int" }
func (r *rangedInt) Set(s string) error {
	v, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return fmt.Errorf("%q: not an integer", s)
	}
	*r.p = int(v)
	return nil
}
func (r *rangedInt) checkRange(label string) error { return inRange(label, *r.p, r.lo, r.hi) }

// intIn declares an int flag whose values lie in [lo, hi]; the range is
// appended to the usage text.
func intIn(f *pflag.FlagSet, p *int, name string, def, lo, hi int, usage string) {
	if def < lo || def > hi {
		panic(fmt.Sprintf("cli: --%s: default %d outside [%d, %d]", name, def, lo, hi))
	}
	*p = def
	f.Var(&rangedInt{p: p, lo: lo, hi: hi}, name, fmt.Sprintf("%s (%d…%d)", usage, lo, hi))
}

// rangedFloat is a float64 flag's value that must be finite and at least lo.
type rangedFloat struct {
	p  *float64
	lo float64
}

func (r *rangedFloat) String() string { return strconv.FormatFloat(*r.p, 'g', -1, 64) }
func (r *rangedFloat) Type() string   { return "float" }
func (r *rangedFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%q: not a number", s)
	}
	*r.p = v
	return nil
}
func (r *rangedFloat) checkRange(label string) error {
	if v := *r.p; math.IsNaN(v) || math.IsInf(v, 0) || v < r.lo {
		return usagef("%s %v: want a finite value ≥ %g", label, v, r.lo)
	}
	return nil
}

// floatAtLeast declares a float64 flag whose values are finite and ≥ lo.
func floatAtLeast(f *pflag.FlagSet, p *float64, name string, def, lo float64, usage string) {
	*p = def
	f.Var(&rangedFloat{p: p, lo: lo}, name, usage)
}

// checkFlagRanges refuses every ranged flag of cmd whose value lies outside
// its range (a default lies inside: intIn checks it).
func checkFlagRanges(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if r, ok := f.Value.(ranged); ok && err == nil {
			err = r.checkRange(flagLabel(f))
		}
	})
	return err
}
