package buildflow

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/logreg"
	"github.com/hdlgen/hdlgen/tune"
)

// Baseline is DIR/baseline.json: the logistic regression the network is
// measured against, its penalty chosen on the search's validation folds of
// the training rows, fitted on every training row and scored on the
// held-out rows.
type Baseline struct {
	Method     string          `json:"method"` // logreg.Method
	Validation string          `json:"validation"`
	Lambdas    []logreg.Scored `json:"lambdas"` // every λ scored
	Lambda     float64         `json:"lambda"`  // the chosen one
	Validated  logreg.Accuracy `json:"validation_accuracy"`
	Train      float64         `json:"train_accuracy"`
	Held       float64         `json:"holdout_accuracy"`
	HeldRows   int             `json:"holdout_rows"`
}

// readLabelled reads a CSV file build wrote (label last).
func readLabelled(path string) (*dataset.Dataset, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("buildflow: %w", err)
	}
	return dataset.ReadCSV(bytes.NewReader(src), path, dataset.CSVOptions{})
}

// writeBaseline fits the baseline on the split's files: λ on v's folds of
// the training file (the search's), then every training row.
func writeBaseline(ctx context.Context, trainPath, heldPath, out string, v tune.Validation, workers int, progress io.Writer) error {
	train, err := readLabelled(trainPath)
	if err != nil {
		return err
	}
	held, err := readLabelled(heldPath)
	if err != nil {
		return err
	}
	folds, err := v.Splits(train)
	if err != nil {
		return fmt.Errorf("buildflow: baseline: %w", err)
	}
	start := time.Now()
	scored, best, err := logreg.Validate(ctx, train, folds, nil, workers, func(done, total int) {
		fmt.Fprintf(progress, "baseline: fold %d/%d of the logistic regression's λ, about %s left\n", done, total+1, jobs.TimeLeft(start, float64(done), float64(total+1)))
	})
	if err != nil {
		return fmt.Errorf("buildflow: baseline: %w", err)
	}
	m, err := logreg.Fit(ctx, train, nil, scored[best].Lambda)
	if err != nil {
		return fmt.Errorf("buildflow: baseline: %w", err)
	}
	right := 0
	for i := range held.M() {
		if train.ClassNames[m.Predict(held.Row(i))] == held.ClassNames[held.Y[i]] {
			right++
		}
	}
	bl := Baseline{Method: logreg.Method, Validation: v.Method(), Lambdas: scored, Lambda: scored[best].Lambda,
		Validated: scored[best].Validated, Train: float64(m.Correct(train, nil)) / float64(train.M()),
		Held: float64(right) / float64(max(held.M(), 1)), HeldRows: held.M()}
	return writeJSON(out, bl)
}
