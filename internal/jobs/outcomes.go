package jobs

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/hdlgen/hdlgen/dataset"
)

// Skipped is a dataset a study could not use, with the reason.
type Skipped struct {
	Dataset string `json:"dataset"`
	Reason  string `json:"reason"`
}

// SortSkipped orders skipped datasets by name.
func SortSkipped(s []Skipped) {
	sort.Slice(s, func(i, j int) bool { return s[i].Dataset < s[j].Dataset })
}

// LoadError marks a dataset that could not be loaded: its jobs are reported as
// skipped, not as failures.
type LoadError struct{ Err error }

func (e LoadError) Error() string { return e.Err.Error() }
func (e LoadError) Unwrap() error { return e.Err }

// Outcome is what became of a finished job.
type Outcome int

// The outcomes.
const (
	Done Outcome = iota
	Skip
	Fail
)

// Outcomes sorts the errors of finished jobs: a dataset whose data file is
// missing or unreadable is skipped (once, however many of its jobs fail), a
// cancellation is not an error of its own, and the first other error is kept,
// prefixed with the study's label and the dataset when label is not empty.
type Outcomes struct {
	skipped  *[]Skipped
	seen     map[string]bool
	label    string
	FirstErr error
}

// NewOutcomes records skipped datasets in *skipped (which may already hold some).
func NewOutcomes(skipped *[]Skipped, label string) *Outcomes {
	o := &Outcomes{skipped: skipped, seen: map[string]bool{}, label: label}
	for _, s := range *skipped {
		o.seen[s.Dataset] = true
	}
	return o
}

// Add records the error of a job on the named dataset.
func (o *Outcomes) Add(name string, err error) Outcome {
	var le LoadError
	switch {
	case err == nil:
		return Done
	case errors.Is(err, dataset.ErrDataFileMissing) || errors.As(err, &le):
		if !o.seen[name] {
			o.seen[name] = true
			*o.skipped = append(*o.skipped, Skipped{name, err.Error()})
		}
		return Skip
	default:
		if o.FirstErr == nil && !errors.Is(err, context.Canceled) {
			o.FirstErr = err
			if o.label != "" {
				o.FirstErr = fmt.Errorf("%s %s: %w", o.label, name, err)
			}
		}
		return Fail
	}
}

// Err is a stage's error once its pool has returned: the cancellation if ctx
// is done, else the first job failure. It sorts the skipped datasets by name.
func (o *Outcomes) Err(ctx context.Context) error {
	SortSkipped(*o.skipped)
	if err := ctx.Err(); err != nil {
		return err
	}
	return o.FirstErr
}
