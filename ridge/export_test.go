package ridge

// WithFullEigen returns s with the PinvCutoff variance-penalty solve routed
// through SymEigen's eigenvectors (the baseline of SymFilterApply), for the
// external tests.
func WithFullEigen(s Solver) Solver {
	s.fullEigen = true
	return s
}
