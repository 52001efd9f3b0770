package buildflow

import (
	"fmt"
	"slices"
	"strings"

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
// of the registries with a power model (RTL and an estimate) whose readout
// width is a choice (--bits), in registry order; with a generated W_in
// (win "lfsr"), those that offer one.
func FamilyMembers(win string) []model.Arch {
	generated := win != "" && win != "stored"
	var out []model.Arch
	for _, a := range power.Networks() {
		t, err := model.TraitsOf(a)
		if err != nil || !t.ReadoutBits() || (generated && !t.GeneratedWin) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// FamilyList is FamilyMembers(win) as --family takes it: "intrvfl,intrvfl2".
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
	}
	return string(a)
}

// levelMax is the largest input level of network arch with n hidden
// neurons in all: n, or for the two-layer intRVFL its first layer's width.
func levelMax(arch model.Arch, n int) int {
	if arch == model.IntRVFL2 {
		n1, _ := model.Int2Split(n)
		return n1
	}
	return n
}
