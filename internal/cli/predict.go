package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/confusion"
	"github.com/hdlgen/hdlgen/model"
)

type predictOptions struct {
	data       string
	scores     bool
	byPosition bool
	score      bool
	json       bool
	labelCol   string
}

// byPositionHelp documents --by-position (predict and sim).
const byPositionHelp = "read the feature columns in file order, ignoring their names (default: match them to the model's feature names)"

func newPredictCmd(app *App) *cobra.Command {
	o := &predictOptions{}
	cmd := &cobra.Command{
		Use:   "predict model.json --data FILE.csv [--score]",
		Short: "Classify the rows of a CSV file, one class name per line",
		Long: `Predict reads a CSV file of the model's features and prints one predicted class
name per row, in row order. A model with an integer readout predicts with it
(exactly as the hardware does; an intRVFL's through a batched path that gives
the same classes, model.BatchPredictor); otherwise the float readout is used.

The header's column names are matched to the model's feature names: the columns
may come in any order, a column named like the training label is ignored (so the
training CSV itself works), and a missing or unknown column is an error naming
it. --by-position reads the columns in file order instead (K feature columns,
optionally followed by the label column), as for a model without feature names.

--score reads a labelled file instead (the label column named like the
training data's, or --label-column) and prints, in place of the predictions,
the accuracy and the confusion matrix (rows: true class, columns: predicted).`,
		Example: `  hdlgen predict iris.json --data iris-new.csv
  hdlgen predict sensors-5bit.json --data sensors-test.csv --score`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), app, args[0]) },
	}
	cmd.Flags().StringVar(&o.data, "data", "", "CSV file with the rows to classify")
	cmd.Flags().BoolVar(&o.scores, "scores", false, "also print the class scores after the class name")
	cmd.Flags().BoolVar(&o.byPosition, "by-position", false, byPositionHelp)
	cmd.Flags().BoolVar(&o.score, "score", false, "the file has labels: print the accuracy and the confusion matrix instead of the predictions")
	cmd.Flags().BoolVar(&o.json, "json", false, "with --score: print the accuracy and the confusion matrix as one JSON object")
	cmd.Flags().StringVar(&o.labelCol, "label-column", "", "with --score: the label column, a header name or a 1-based number (default: the training data's label name)")
	_ = cmd.MarkFlagRequired("data")
	argsAreInputs(cmd, "model.json")
	markInputs(cmd, "data")
	return cmd
}

// loadFeatures reads the rows to classify for m: columns matched by the
// model's feature names unless byPosition (or the model has none).
func loadFeatures(m *model.Model, path string, byPosition bool) (*dataset.Dataset, error) {
	opt := dataset.FeatureOptions{Features: m.K(), LabelName: m.Training.LabelName}
	if !byPosition && len(m.FeatureNames) == m.K() {
		opt.Names = m.FeatureNames
	}
	d, err := dataset.LoadFeaturesCSV(path, opt)
	var ce *dataset.ColumnsError
	if errors.As(err, &ce) {
		return nil, fmt.Errorf("%w (--by-position reads the columns in file order)", err)
	}
	if err != nil {
		return nil, err
	}
	if d.K() != m.K() {
		return nil, fmt.Errorf("%s has %d feature columns, the model expects %d", path, d.K(), m.K())
	}
	return d, nil
}

func (o *predictOptions) run(ctx context.Context, app *App, modelPath string) error {
	m, err := model.ReadFile(modelPath)
	if err != nil {
		return err
	}
	if o.score {
		// Reading and scoring take no context: the command returns as
		// soon as it ends (interruptible), whatever the phase.
		cm, err := interruptible(ctx, func() (*confusion.Matrix, error) { return scoreFile(m, o.data, o.labelCol, o.byPosition, app.Err) })
		if err != nil {
			return err
		}
		if o.json {
			return writeScoreJSON(app.Out, cm)
		}
		return cm.WriteText(app.Out)
	}
	if o.labelCol != "" {
		return usagef("--label-column applies to --score")
	}
	if o.json {
		return usagef("--json applies to --score")
	}
	d, err := loadFeatures(m, o.data, o.byPosition)
	if err != nil {
		return err
	}
	warnOutOfRange(app.Err, m, d, o.data)
	w := bufio.NewWriter(app.Out)
	defer w.Flush()
	pred, err := interruptible(ctx, func() ([]int, error) { return predictAll(m, d), nil })
	if err != nil {
		return err
	}
	for r := 0; r < d.M(); r++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := d.Row(r)
		fmt.Fprint(w, m.ClassNames[pred[r]])
		if o.scores {
			if m.Readout != nil {
				for _, s := range m.IntScores(row) {
					fmt.Fprintf(w, " %d", s)
				}
			} else {
				for _, s := range m.FloatScores(row) {
					fmt.Fprintf(w, " %.6g", s)
				}
			}
		}
		fmt.Fprintln(w)
	}
	return w.Flush()
}

// scoreFile classifies the rows of a labelled CSV with m (its integer readout
// when it has one, as the hardware) and counts them against the labels.
// The label column is labelCol, else the training data's label name, else
// the last column; features are matched to the model's names unless
// byPosition, classes by name.
func scoreFile(m *model.Model, path, labelCol string, byPosition bool, warn io.Writer) (*confusion.Matrix, error) {
	if labelCol == "" {
		labelCol = m.Training.LabelName
	}
	d, err := loadTestColumn(path, labelCol)
	if err != nil {
		return nil, err
	}
	want := &dataset.Dataset{FeatureNames: m.FeatureNames, ClassNames: m.ClassNames}
	if byPosition || len(m.FeatureNames) != m.K() {
		if d.K() != m.K() {
			return nil, fmt.Errorf("%s has %d feature columns, the model expects %d", path, d.K(), m.K())
		}
		want.FeatureNames = d.FeatureNames
	}
	if d, err = matchColumns(want, d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	warnOutOfRange(warn, m, d, path)
	return confusion.Of(m.ClassNames, d.Y, predictAll(m, d)), nil
}

// OutOfRange counts the feature values of d outside the training rows'
// range that m's normalisation clamps (NaN included), per feature, and the
// rows holding any.
func OutOfRange(m *model.Model, d *dataset.Dataset) (perFeature []int, rows int) {
	nz := m.Norm
	perFeature = make([]int, d.K())
	for r := range d.M() {
		out := false
		for j, v := range d.Row(r) {
			if j < len(nz.Min) && (v < nz.Min[j] || v > nz.Max[j] || v != v) {
				perFeature[j]++
				out = true
			}
		}
		if out {
			rows++
		}
	}
	return perFeature, rows
}

// warnOutOfRange warns, on w, of the values predict clamps to the training
// range (the host encoding does the same), with their count per feature.
func warnOutOfRange(w io.Writer, m *model.Model, d *dataset.Dataset, path string) {
	per, rows := OutOfRange(m, d)
	if rows == 0 {
		return
	}
	total := 0
	var parts []string
	for j, n := range per {
		if n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", d.FeatureNames[j], n))
		}
	}
	fmt.Fprintf(w, "hdlgen: warning: --data %s: %d values in %d of %d rows lie outside the training rows' range and are clamped to it (as the host encoding of the hardware does): %s\n",
		path, total, rows, d.M(), strings.Join(parts, ", "))
}

// predictAll classifies every row of d with m: the batch path
// (model.BatchPredictor, bit-identical) when m has one, else row by row.
func predictAll(m *model.Model, d *dataset.Dataset) []int {
	pred := make([]int, d.M())
	if bp := model.NewBatchPredictor(m); bp != nil {
		bp.Predict(pred, d.X, d.M(), 0)
		return pred
	}
	for r := range pred {
		pred[r] = m.Predict(d.Row(r))
	}
	return pred
}

// writeScoreJSON prints predict --score --json: confusion.Score.
func writeScoreJSON(w io.Writer, cm *confusion.Matrix) error {
	b, err := json.MarshalIndent(cm.Score(), "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
