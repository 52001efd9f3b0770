package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/weights"
)

type weightsOptions struct {
	design string
	out    string
}

func newWeightsCmd(app *App) *cobra.Command {
	o := &weightsOptions{}
	cmd := &cobra.Command{
		Use:   "weights model.json --design DIR -o readout.bin",
		Short: "Write a readout image that reloads a Zynq system design's readout at run time",
		Long: `Weights writes the integer readout of model.json as a readout image for the
design in DIR, emitted with --system zynq --reloadable-readout. The host driver
loads it into the design's inactive readout bank and swaps banks between two
vectors (docs/zedboard.md), so a retrained readout runs without a new bitstream.

The model must share everything before the readout with the design: K, N, L,
the normalisation (per-feature min and max), the hidden layer (intRVFL: κ and
W_in, i.e. the same seed; rvfl8: W_in, biases, sigmoid table), and a readout
bound no larger than the design's. Such models come from the design's model
requantised or refined (hdlgen quantize, e.g. --ga rounded), or retrained on
the same data with the same --n, --kappa and --seed and another --lambda or
--regularizer. A model that differs is refused with every difference named.`,
		Example: `  hdlgen quantize build/iris/model.json --bits 5 --ga rounded --data example:iris -o ga.json
  hdlgen weights ga.json --design build/iris -o readout.bin
  hdlgen-run load-readout readout.bin        # on the board, from build/iris/driver`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(app, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.design, "design", "", "design directory written by hdlgen emit --system zynq --reloadable-readout")
	f.StringVarP(&o.out, "out", "o", "", "readout image to write")
	hiddenAlias(f, "output", "out")
	_ = cmd.MarkFlagRequired("design")
	_ = cmd.MarkFlagRequired("out")
	argsAreInputs(cmd, "model.json")
	markInputs(cmd, "design")
	markOutput(cmd, "out", outputFile)
	return cmd
}

func (o *weightsOptions) run(app *App, modelPath string) error {
	m, err := model.ReadFile(modelPath)
	if err != nil {
		return err
	}
	d, err := weights.ReadDesign(o.design)
	if err != nil {
		return err
	}
	if !d.Reloadable {
		return fmt.Errorf("weights: %s was emitted without --reloadable-readout: its readout is a ROM (emit it with --system zynq --reloadable-readout)", o.design)
	}
	img, err := weights.New(d.Design, m)
	if err != nil {
		return fmt.Errorf("%s against %s: %w", modelPath, o.design, err)
	}
	b, err := img.MarshalBinary()
	if err != nil {
		return err
	}
	if err := app.writeFile("-o", o.out, b); err != nil {
		return err
	}
	fmt.Fprintf(app.Err, "wrote %s: the %d-bit readout (±%d) of %s for design %s (model hash %s): %d words × %d RO_DATA writes\n",
		o.out, img.Bits, img.Bound, m.Name, o.design, img.Design, img.Words(), img.Chunks())
	fmt.Fprintln(app.Out, o.out)
	return nil
}
