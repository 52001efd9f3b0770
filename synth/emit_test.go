package synth

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
)

// emitTiny trains a 16-neuron intRVFL on a separable toy set and emits it (P=1).
func emitTiny(t *testing.T) string {
	t.Helper()
	d := model.Data{Name: "tiny", ClassNames: []string{"a", "b"}}
	for r := 0; r < 40; r++ {
		y := r % 2
		d.Y = append(d.Y, y)
		d.X = append(d.X, float64(y)+0.1*float64(r%5), float64(1-y)+0.05*float64(r%3), float64(r%7))
	}
	m, err := model.Train(context.Background(), d, model.Config{Arch: model.IntRVFL, N: 16, Kappa: 2, Lambda: 1, ReadoutBits: 4})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "tiny")
	if _, err := rtl.Emit(context.Background(), m, rtl.Options{Vectors: 4}, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
