package buildflow

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/tune"
)

// The family (issue 35): build searches every member, and the design step
// chooses the network with N and P — among the (network, N) whose validation
// accuracy is within the tolerance of the best of any member, the design the
// objective picks. A costlier member is chosen only when it pays on
// validation: when no cheaper design comes within the tolerance of it.

// FamilyMembers are the networks build may choose among: every network type
// of the registries with a power model (RTL and an estimate) and an integer
// readout but the fixed-point baseline (model.Traits.Baseline: the rvfl8):
// the plain intRVFL first (the member of a build on large data, and the one
// whose files keep a single-network build's names), then the others in
// registry order — the random conjunctions, the two-layer intRVFL; with a
// generated W_in (win "lfsr"), those that offer one. A member whose readout
// width is its own (the conj's 8 bits) deploys that width whatever --bits
// says (memberBits).
func FamilyMembers(win string) []model.Arch {
	generated := win != "" && win != "stored"
	var out []model.Arch
	for _, a := range power.Networks() {
		t, err := model.TraitsOf(a)
		if err != nil || !t.Readout.Allowed || t.Baseline || (generated && !t.GeneratedWin) {
			continue
		}
		out = append(out, a)
	}
	// the plain intRVFL leads; the others keep their order
	if i := slices.Index(out, model.IntRVFL); i > 0 {
		out = slices.Insert(slices.Delete(out, i, i+1), 0, model.IntRVFL)
	}
	return out
}

// isBaseline reports whether network arch is the fixed-point baseline
// (model.Traits.Baseline).
func isBaseline(arch model.Arch) bool {
	t, err := model.TraitsOf(arch)
	return err == nil && t.Baseline
}

// memberBits is the readout width network arch deploys in a build of --bits
// bits: bits when the width is a choice of the type, its own otherwise.
func memberBits(arch model.Arch, bits int) int {
	if t, err := model.TraitsOf(arch); err == nil && !t.ReadoutBits() {
		return t.Readout.Bits
	}
	return bits
}

// ownWidth reports whether network arch has a readout width of its own (the
// conj): it is trained as integers, with no float readout to round and no
// GA to refine it, and --bits and --readout do not apply to it.
func ownWidth(arch model.Arch) bool {
	t, err := model.TraitsOf(arch)
	return err == nil && !t.ReadoutBits()
}

// FamilyList is FamilyMembers(win) as --family takes it: "intrvfl,conj,intconj,intrvfl2".
func FamilyList(win string) string {
	var names []string
	for _, a := range FamilyMembers(win) {
		names = append(names, string(a))
	}
	return strings.Join(names, ",")
}

// members are the networks of this build of trainRows training rows:
// --family's list, or every member below CoarseGridRows training rows and
// the first (the intRVFL) from there on, where the two-layer network's
// search costs about 4.5 times the intRVFL's (docs/build.md, "The
// family"); with N, λ and κ given (no search), the first of them.
func (o Options) members(trainRows int) ([]model.Arch, error) {
	all := FamilyMembers(o.Win)
	if o.Family == "" {
		if o.searchSkipped() || trainRows >= CoarseGridRows {
			return all[:1], nil
		}
		return all, nil
	}
	var out []model.Arch
	for _, name := range strings.Split(o.Family, ",") {
		a := model.Arch(strings.TrimSpace(name))
		switch {
		case !slices.Contains(all, a) && slices.Contains(FamilyMembers(""), a):
			return nil, optionErrorf("--family %s: %s has no generated W_in (--win %s); want %s", o.Family, a, o.Win, model.Alternatives(all))
		case isBaseline(a):
			return nil, optionErrorf("--family %s: %s is the fixed-point baseline the family is measured against, not a member; want %s", o.Family, a, model.Alternatives(all))
		case !slices.Contains(all, a):
			return nil, optionErrorf("--family %s: unknown member %q; want %s", o.Family, a, model.Alternatives(all))
		case slices.Contains(out, a):
			return nil, optionErrorf("--family %s: %s named twice", o.Family, a)
		}
		out = append(out, a)
	}
	if o.searchSkipped() && len(out) > 1 {
		return nil, optionErrorf("--family %s: --n, --lambda and --kappa skip the search, so they name one network: give one member", o.Family)
	}
	return out, nil
}

// MemberSearch is one member's search (or eval of the given N, λ, κ).
type MemberSearch struct {
	Network model.Arch  `json:"network"`
	Result  tune.Result `json:"result"`
}

// MemberCurve is one member's accuracy-against-size curve and its best
// configuration's validation accuracy, as the design step reads them.
type MemberCurve struct {
	Network model.Arch
	Curve   []tune.CurvePoint
	Best    tune.Accuracy
}

// The first member keeps the names of a single-network build (step search,
// search.json, search-parts), so that a build of the plain intRVFL resumes
// as before; every other member's are suffixed with its name.
func searchStep(a model.Arch, first bool) string {
	if first {
		return "search"
	}
	return "search " + string(a)
}

func searchFile(a model.Arch, first bool) string {
	if first {
		return searchJSON
	}
	return fmt.Sprintf("search-%s.json", a)
}

func searchParts(a model.Arch, first bool) string {
	if first {
		return partsDir
	}
	return partsDir + "-" + string(a)
}

// networkName is a member's name in the report.
func networkName(a model.Arch) string {
	switch a {
	case model.IntRVFL:
		return "intRVFL"
	case model.IntRVFL2:
		return "two-layer intRVFL (intrvfl2)"
	case model.Conj:
		return "random conjunctions (conj)"
	case model.IntConj:
		return "intRVFL neurons and conjunctions (intconj)"
	}
	return string(a)
}

// levelMax is the largest input level of network arch with n hidden
// neurons in all: n, for the two-layer intRVFL and the intconj their
// neurons' width N1, for the conj the largest 8-bit code (model.InputCode).
func levelMax(arch model.Arch, n int) int {
	switch arch {
	case model.IntRVFL2:
		n1, _ := model.Int2Split(n)
		return n1
	case model.IntConj:
		n1, _ := model.IntConjSplit(n)
		return n1
	case model.Conj:
		return math.MaxUint8
	}
	return n
}

// ownWidthStep is the quantize step of a member with a readout width of its
// own: `hdlgen train` wrote its integer readout (the ridge solution rounded
// to the type's width), so model.json is model-float.json's bytes.
func ownWidthStep(from, to, trainFP, evalFP string, bits int) stepDef {
	return stepDef{
		name:    "quantize",
		line:    fmt.Sprintf("(by build: %s already holds the %d-bit readout `hdlgen train` rounded; copied to %s)", filepath.Base(from), bits, filepath.Base(to)),
		deps:    []string{trainFP, evalFP, strconv.Itoa(bits)},
		outputs: []string{intModel},
		do: func(context.Context) error {
			data, err := os.ReadFile(from)
			if err != nil {
				return fmt.Errorf("buildflow: %w", err)
			}
			if err := atomicfile.WriteFile(to, data, 0o644); err != nil {
				return fmt.Errorf("buildflow: %w", err)
			}
			return nil
		},
	}
}
