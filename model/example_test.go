package model_test

import (
	"context"
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// Train an intRVFL with a 5-bit integer readout on a tiny data set (two
// classes, one feature) and classify two rows.
func ExampleTrain() {
	d := model.Data{Name: "tiny", ClassNames: []string{"low", "high"}}
	for r := 0; r < 40; r++ {
		x := float64(r) / 39
		d.X = append(d.X, x)
		d.Y = append(d.Y, r*2/40) // rows 0–19 are "low", 20–39 "high"
	}
	m, err := model.Train(context.Background(), d, model.Config{
		Arch: model.IntRVFL, N: 32, Kappa: 3, Lambda: 1, Seed: 1, ReadoutBits: 5,
		Regularizer: model.RegIdentity})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m)
	fmt.Printf("training accuracy %.2f\n", m.Accuracy(d.X, len(d.Y), d.Y))
	fmt.Println(d.ClassNames[m.Predict([]float64{0.05})], d.ClassNames[m.Predict([]float64{0.95})])
	// Output:
	// intrvfl K=1 N=32 L=2 κ=3 readout=5 bits (±15, round)
	// training accuracy 0.97
	// low high
}
