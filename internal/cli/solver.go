package cli

import (
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/model"
)

// solverFlags are --solver and --pinv-rtol, shared by every command that
// trains (docs/semantics.md §5).
type solverFlags struct {
	method string
	rtol   float64
}

// add registers the flags on f.
func (s *solverFlags) add(f *pflag.FlagSet) {
	f.StringVar(&s.method, "solver", "exact", "ridge solver: exact, or pinv-cutoff (the authors' code: pseudo-inverse of the N×N system, singular values ≤ rtol·σ_max dropped)")
	f.Float64Var(&s.rtol, "pinv-rtol", 0, "pinv-cutoff's relative tolerance (0: N·2⁻²³, torch.linalg.pinv's float32 default)")
}

// solver parses the flags.
func (s *solverFlags) solver() (model.Solver, error) {
	sv, err := model.ParseSolver(s.method, s.rtol)
	if err != nil {
		return model.Solver{}, usagef("--solver %s --pinv-rtol %v: %v", s.method, s.rtol, err)
	}
	return sv, nil
}
