package hwstudy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/internal/planflags"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// MedianVariant is one family of designs of the median table: the emit
// options of each network it builds (as hdlgen emit flags), how its rows are
// labelled and where their design directories go, and whether they enter the
// intRVFL-against-rvfl8 comparisons or are set against the hand-written lean
// references. A new variant is one entry of MedianVariants.
type MedianVariant struct {
	Name  string
	Label string // appended to the network in tables ("" for the default designs)
	// Suffix ends the design directories' names.
	Suffix string
	// Flags are the emit options per network; a network not listed is not
	// built in this variant.
	Flags   map[model.Arch][]string
	Compare bool // rows enter the energy comparisons
	Lean    bool // rows are set against LeanReferences
	Doc     string
}

// MedianVariants are the variants of the median table.
var MedianVariants = []MedianVariant{
	{Name: "default", Flags: map[model.Arch][]string{model.IntRVFL: nil, model.RVFL8: nil}, Compare: true,
		Doc: "both networks as emit makes them by default"},
	{Name: "rvfl8-block", Label: "ROMs in block RAM", Suffix: "_block", Compare: true,
		Flags: map[model.Arch][]string{model.RVFL8: {"--rom-style", plan.ROMStyleBlock}},
		Doc:   "the rvfl8 with its W_in and readout ROMs in block RAM, the lean baseline (at P = 1 Yosys puts the deep ROMs there anyway)"},
	{Name: "int-block", Label: "ROMs in block RAM", Suffix: "_block",
		Flags: map[model.Arch][]string{model.IntRVFL: {"--rom-style", plan.ROMStyleBlock}},
		Doc:   "the intRVFL with its ROMs in block RAM, for reference (its ROMs are narrow: block RAM does not make it leaner)"},
	{Name: "lean", Label: "lean", Suffix: "_lean", Lean: true,
		Flags: map[model.Arch][]string{
			model.IntRVFL: {"--rom-style", plan.ROMStyleBlock, "--hold-input", "--register-sums"},
			model.RVFL8:   {"--rom-style", plan.ROMStyleBlock, "--hold-input"}},
		Doc: "the lean cores: ROMs in block RAM, no input register, and for the intRVFL the lane sums registered instead of the products (the rvfl8's products are DSP48E1s with the register inside)"},
	{Name: "lean-lut", Label: "lean, ROMs by Yosys", Suffix: "_lean_lut", Lean: true,
		Flags: map[model.Arch][]string{model.IntRVFL: {"--hold-input", "--register-sums"}},
		Doc:   "a lean intRVFL whose ROMs Yosys places: at P > 1 its shallow ROMs stay in LUTs, which costs less energy than block RAM reads"},
}

// variantNamed returns the variant called name.
func variantNamed(name string) (MedianVariant, bool) {
	i := slices.IndexFunc(MedianVariants, func(v MedianVariant) bool { return v.Name == name })
	if i < 0 {
		return MedianVariant{}, false
	}
	return MedianVariants[i], true
}

// options returns the variant's design options for network net at
// parallelism p.
func (v MedianVariant) options(net model.Arch, p int) (plan.Options, error) {
	return planflags.Parse(plan.Options{Parallel: p}, v.Flags[net])
}

// variantOf returns the variant whose options for the row's network are the
// row's (P aside): rows carry their options, not their variant's name.
func variantOf(net model.Arch, o plan.Options) MedianVariant {
	for _, v := range MedianVariants {
		flags, ok := v.Flags[net]
		if !ok {
			continue
		}
		want, err := planflags.Parse(plan.Options{Parallel: o.Parallel}, flags)
		if err == nil && normalizeOptions(want) == normalizeOptions(o) {
			return v
		}
	}
	return MedianVariant{Name: "other", Label: strings.Join(planflags.Args(o), " ")}
}

// normalizeOptions maps the zero values that mean a default to it, so that
// options compare equal however they were made.
func normalizeOptions(o plan.Options) plan.Options {
	if o.ROMStyle == plan.ROMStyleAuto {
		o.ROMStyle = ""
	}
	return o
}

// MedianRun asks for the designs of one variant and network at some
// parallelisms.
type MedianRun struct {
	Variant string
	Net     model.Arch // "" means every network of the variant
	Ps      []int
}

// ParseMedianRun reads "VARIANT[:NETWORK]=P,P,…" (hdlgen power median-table
// --variant), e.g. "lean=1,8" or "default:rvfl8=1,2,4".
func ParseMedianRun(s string) (MedianRun, error) {
	name, ps, ok := strings.Cut(s, "=")
	if !ok {
		return MedianRun{}, fmt.Errorf("%q: want VARIANT[:NETWORK]=P,P,… (variants: %s)", s, VariantNames())
	}
	name, net, _ := strings.Cut(name, ":")
	v, ok := variantNamed(name)
	if !ok {
		return MedianRun{}, fmt.Errorf("%q: no variant %q (have %s)", s, name, VariantNames())
	}
	r := MedianRun{Variant: name, Net: model.Arch(net)}
	if _, ok := v.Flags[r.Net]; net != "" && !ok {
		return MedianRun{}, fmt.Errorf("%q: variant %s builds no %s", s, name, net)
	}
	for _, f := range strings.Split(ps, ",") {
		if f = strings.TrimSpace(f); f == "" || f == "none" {
			continue
		}
		p, err := strconv.Atoi(f)
		if err != nil || p < 1 {
			return MedianRun{}, fmt.Errorf("%q: P %q: want a positive integer", s, f)
		}
		r.Ps = append(r.Ps, p)
	}
	return r, nil
}

// VariantNames lists the variants for help texts and messages.
func VariantNames() string {
	var names []string
	for _, v := range MedianVariants {
		names = append(names, v.Name)
	}
	return strings.Join(names, ", ")
}

// DefaultMedianRuns are the designs of the median table without --variant:
// both networks at their default parallelisms, and the rvfl8 with block-RAM
// ROMs at those above 1.
func DefaultMedianRuns() []MedianRun {
	var block []int
	for _, p := range DefaultMedianRVFL8Ps {
		if p > 1 {
			block = append(block, p)
		}
	}
	return []MedianRun{
		{Variant: "default", Net: model.IntRVFL, Ps: DefaultMedianIntPs},
		{Variant: "default", Net: model.RVFL8, Ps: DefaultMedianRVFL8Ps},
		{Variant: "rvfl8-block", Net: model.RVFL8, Ps: block},
	}
}

// VariantFor reports whether the variant called name exists (ok) and builds
// network net (builds).
func VariantFor(name string, net model.Arch) (builds, ok bool) {
	v, ok := variantNamed(name)
	if !ok {
		return false, false
	}
	_, builds = v.Flags[net]
	return builds, true
}
