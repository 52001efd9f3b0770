package model

import (
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/ridge"
)

// Solver names how the ridge readout is solved, as model.json and the study
// results record it (docs/semantics.md §5). Its zero value is the exact solve,
// and an exact Solver adds nothing to model.json or a stored study result.
type Solver struct {
	// Method is "exact" (or "", the same) or "pinv-cutoff" (the authors'
	// pseudo-inverse: singular values of the N×N system at or below
	// RTol·σ_max are dropped; package ridge).
	Method string `json:"solver,omitempty"`
	// RTol is pinv-cutoff's relative tolerance; 0 means the default
	// columns·2⁻²³ (torch.linalg.pinv's for a float32 matrix). Exact has none.
	RTol float64 `json:"pinv_rtol,omitempty"`
}

// ParseSolver validates a method name ("exact" or "pinv-cutoff") and its
// relative tolerance (≥ 0, finite; 0 means the default; only with
// pinv-cutoff).
func ParseSolver(method string, rtol float64) (Solver, error) {
	m, err := ridge.ParseMethod(method)
	if err != nil {
		return Solver{}, err
	}
	s := Solver{Method: m.String(), RTol: rtol}
	if m == ridge.Exact {
		s.Method = ""
	}
	return s, s.Check()
}

// Check validates s (ParseSolver's rules).
func (s Solver) Check() error {
	m, err := s.method()
	if err != nil {
		return err
	}
	switch {
	case !(s.RTol >= 0) || math.IsInf(s.RTol, 0):
		return fmt.Errorf("pinv relative tolerance %v, want a finite value ≥ 0 (0: the default N·2⁻²³)", s.RTol)
	case s.RTol != 0 && m == ridge.Exact:
		return fmt.Errorf("pinv relative tolerance %v given with the exact solver (it applies to pinv-cutoff only)", s.RTol)
	}
	return nil
}

// method maps the name onto the solver's enum ("" is exact).
func (s Solver) method() (ridge.Method, error) {
	if s.Method == "" {
		return ridge.Exact, nil
	}
	return ridge.ParseMethod(s.Method)
}

// Exact reports whether s is the exact solve.
func (s Solver) Exact() bool { return s.Method == "" || s.Method == ridge.Exact.String() }

// String returns "exact", "pinv-cutoff" or "pinv-cutoff rtol=…".
func (s Solver) String() string {
	switch {
	case s.Exact():
		return ridge.Exact.String()
	case s.RTol == 0:
		return s.Method
	}
	return fmt.Sprintf("%s rtol=%g", s.Method, s.RTol)
}

// Ridge returns the ridge solver of s with penalty reg on threads goroutines.
// s must be valid (ParseSolver or a checked Config).
func (s Solver) Ridge(reg Regularizer, threads int) ridge.Solver {
	m, err := s.method()
	if err != nil {
		panic("model: " + err.Error())
	}
	return ridge.Solver{Reg: reg.Ridge(), Threads: threads, Method: m, RTol: s.RTol}
}

// Resolved returns s with the default tolerance of a system of the given
// number of columns written out (what model.json records).
func (s Solver) Resolved(columns int) Solver {
	if s.Exact() {
		return Solver{}
	}
	if s.RTol == 0 {
		s.RTol = ridge.DefaultRTol(columns)
	}
	return s
}
