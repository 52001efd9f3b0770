package buildflow

import (
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/tune"
)

// DesignPoint is one N of the search's curve (its best κ and λ) with every
// P of its design, estimated by the analytic model.
type DesignPoint struct {
	Network model.Arch `json:"network"`
	tune.CurvePoint
	Within bool        `json:"within"` // validation accuracy within the tolerance of the best
	Sizes  []Candidate `json:"sizes"`
	Best   int         `json:"best"` // index into Sizes of the P the objective picks (-1: none meets the constraints)
}

// BestSize is the candidate the objective picks at this N, or nil.
func (d DesignPoint) BestSize() *Candidate {
	if d.Best < 0 {
		return nil
	}
	return &d.Sizes[d.Best]
}

// DesignChoice is DIR/design.json: the choice of N and P together.
type DesignChoice struct {
	Objective string        `json:"objective"`
	Best      float64       `json:"best_accuracy"` // the curves' best validation accuracy
	Tolerance float64       `json:"tolerance"`     // accepted loss of validation accuracy (a fraction)
	From      string        `json:"tolerance_from"`
	Points    []DesignPoint `json:"points"`
	Chosen    int           `json:"chosen"` // index into Points
}

// ChosenSize is the chosen design's candidate.
func (c DesignChoice) ChosenSize() Candidate { return *c.Points[c.Chosen].BestSize() }

// tolerance is the accepted loss of validation accuracy: --tolerance
// points, else one standard error of the best configuration's validation
// accuracy (its standard deviation over the splits / √splits).
func (o Options) tolerance(best tune.Accuracy) (float64, string) {
	if o.Tolerance > 0 {
		return o.Tolerance / 100, fmt.Sprintf("--tolerance %g points", o.Tolerance)
	}
	se, n, ok := best.StdErr()
	if !ok {
		return 0, "no spread measured: the best only"
	}
	return se, fmt.Sprintf("one standard error of the best configuration's validation accuracy (%.4f / √%d)", best.Std, n)
}

// ChooseDesign chooses the network, N and P together: among the (network,
// N) of the members' curves whose validation accuracy is within the
// tolerance of the best, the design (network, N, P) the objective picks, by
// the analytic model of each N's network at every candidate P (the declared
// readout width: the networks have no trained readout here). The tolerance
// is taken from the member whose best configuration validated best. A given
// P (--parallel) is the P of every N that has it. k and l are the data's
// features and classes.
func ChooseDesign(members []MemberCurve, k, l int, o Options) (DesignChoice, error) {
	if len(members) == 0 {
		return DesignChoice{}, fmt.Errorf("buildflow: no network to choose among")
	}
	lead := 0
	for i, m := range members {
		if m.Best.Mean > members[lead].Best.Mean {
			lead = i
		}
	}
	tol, from := o.tolerance(members[lead].Best)
	dc := DesignChoice{Objective: o.Objective, Tolerance: tol, From: from, Chosen: -1}
	for _, m := range members {
		for _, c := range m.Curve {
			dc.Best = math.Max(dc.Best, c.Accuracy)
		}
	}
	var pooled []Candidate // the best P of each (network, N) within the tolerance
	var owner []int
	for _, m := range members {
		for _, c := range m.Curve {
			pt := DesignPoint{Network: m.Network, CurvePoint: c, Within: c.Accuracy >= dc.Best-tol-1e-12, Best: -1}
			s, err := power.ShapeOf(m.Network, k, l, c.Kappa, o.Bits)
			if err != nil {
				return dc, err
			}
			for _, par := range candidatePs(c.N, o.Parallel) {
				if o.Parallel > 0 && par != o.Parallel {
					continue
				}
				des := power.Design{Shape: s, N: c.N, Options: plan.Options{Parallel: par}}
				e, err := power.EstimateAnalytic(des, power.Params{BudgetOn: o.BudgetOn})
				if err != nil {
					return dc, fmt.Errorf("buildflow: %s N=%d P=%d: %w", m.Network, c.N, par, err)
				}
				pt.Sizes = append(pt.Sizes, candidateOf(par, e, power.AnalyticFmaxMHz(des)))
			}
			markFeasible(pt.Sizes, o)
			pt.Best = pick(pt.Sizes, o.Objective)
			if pt.Within && pt.Best >= 0 {
				pooled, owner = append(pooled, pt.Sizes[pt.Best]), append(owner, len(dc.Points))
			}
			dc.Points = append(dc.Points, pt)
		}
	}
	if i := pick(pooled, o.Objective); i >= 0 {
		dc.Chosen = owner[i]
		return dc, nil
	}
	return dc, fmt.Errorf("buildflow: no design of the N within %.4f of the best validation accuracy (%.4f) meets %s (estimated by hdlgen power's analytic model)",
		tol, dc.Best, o.constraintText())
}
