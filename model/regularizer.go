package model

import (
	"fmt"

	"github.com/hdlgen/hdlgen/ridge"
)

// Regularizer names the ridge penalty as written in model.json (docs/semantics.md §5).
type Regularizer string

const (
	// RegVariance is λ·diag(var(H)), the authors' form and the default.
	RegVariance Regularizer = "variance"
	// RegIdentity is λ·I, the paper's printed formula.
	RegIdentity Regularizer = "identity"
)

// ParseRegularizer validates a regulariser name.
func ParseRegularizer(s string) (Regularizer, error) {
	switch r := Regularizer(s); r {
	case RegVariance, RegIdentity:
		return r, nil
	}
	return "", fmt.Errorf("unknown regularizer %q (want %s or %s)", s, RegVariance, RegIdentity)
}

// Ridge maps the model.json name onto the solver's enum (RegIdentity is
// ridge.Identity; RegVariance and "" are ridge.Variance).
func (r Regularizer) Ridge() ridge.Regularizer {
	if r == RegIdentity {
		return ridge.Identity
	}
	return ridge.Variance
}
