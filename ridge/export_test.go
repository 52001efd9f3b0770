package ridge

// WithFullEigen returns s with the PinvCutoff variance-penalty solve routed
// through SymEigen's eigenvectors (the baseline of SymFilterApply), for the
// external tests.
func WithFullEigen(s Solver) Solver {
	s.fullEigen = true
	return s
}

// ColumnGroups returns the number of groups of repeated columns among the
// cols columns of the rows×cols matrix h, as PinvCutoff finds them.
func ColumnGroups(h []float64, rows, cols int) int {
	s := Solver{Method: PinvCutoff}
	return len(findColumnGroups(h, rows, cols, cols, s.regDiag(h, rows, cols)).rep)
}
