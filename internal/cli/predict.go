package cli

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

type predictOptions struct {
	data   string
	scores bool
}

func newPredictCmd(app *App) *cobra.Command {
	o := &predictOptions{}
	cmd := &cobra.Command{
		Use:   "predict model.json --data FILE.csv",
		Short: "Classify the rows of a CSV file, one class name per line",
		Long: `Predict reads a CSV file whose columns are the model's features (a training CSV
with its label column in last place works too) and prints one predicted class name
per row, in row order. A model with an integer readout predicts with it (exactly
as the hardware does); otherwise the float readout is used.`,
		Example: `  hdlgen predict iris.json --data iris-new.csv`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return o.run(app, args[0]) },
	}
	cmd.Flags().StringVar(&o.data, "data", "", "CSV file with the rows to classify")
	cmd.Flags().BoolVar(&o.scores, "scores", false, "also print the class scores after the class name")
	_ = cmd.MarkFlagRequired("data")
	return cmd
}

func (o *predictOptions) run(app *App, modelPath string) error {
	m, err := model.ReadFile(modelPath)
	if err != nil {
		return err
	}
	d, err := dataset.LoadFeaturesCSV(o.data, dataset.FeatureOptions{Features: m.K(), LabelName: m.Training.LabelName})
	if err != nil {
		return err
	}
	if d.K() != m.K() {
		return fmt.Errorf("%s has %d feature columns, the model expects %d", o.data, d.K(), m.K())
	}
	w := bufio.NewWriter(app.Out)
	defer w.Flush()
	for r := 0; r < d.M(); r++ {
		row := d.Row(r)
		c := m.Predict(row)
		fmt.Fprint(w, m.ClassNames[c])
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
