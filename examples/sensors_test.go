package examples_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hdlgen/hdlgen/dataset"
)

var updateSensors = flag.Bool("update-sensors", false, "rewrite sensors.csv from its generator")

// sensorsCSV generates sensors.csv: a synthetic machine-condition data set of
// the project's own (no provenance to cite), with the label in the FIRST
// column and string class names, for `hdlgen build` and its CI test. Each of
// the classes normal, worn and faulty has 80 rows of four Gaussian features
// (vibration RMS in mm/s, temperature in °C, motor current in A, acoustic
// level in dB) with overlapping means, so no readout is perfect; rows are
// shuffled; seed fixed.
func sensorsCSV() []byte {
	type class struct {
		name       string
		mean, sdev [4]float64
	}
	classes := []class{
		{"normal", [4]float64{1.0, 45, 3.0, 60}, [4]float64{0.35, 5, 0.4, 4}},
		{"worn", [4]float64{1.6, 52, 3.4, 66}, [4]float64{0.45, 6, 0.5, 5}},
		{"faulty", [4]float64{2.4, 58, 4.1, 70}, [4]float64{0.6, 7, 0.6, 6}},
	}
	const perClass = 80
	rng := rand.New(rand.NewPCG(2026, 12))
	var rows []string
	for _, c := range classes {
		for i := 0; i < perClass; i++ {
			r := c.name
			for j := range c.mean {
				r += fmt.Sprintf(",%.3f", c.mean[j]+c.sdev[j]*rng.NormFloat64())
			}
			rows = append(rows, r)
		}
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var b bytes.Buffer
	b.WriteString("condition,vibration_rms,temperature_c,current_a,acoustic_db\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	return b.Bytes()
}

func TestSensorsCSV(t *testing.T) {
	want := sensorsCSV()
	if *updateSensors {
		if err := os.WriteFile("sensors.csv", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("sensors.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sensors.csv differs from its generator; rerun with -update-sensors")
	}
	d, err := dataset.LoadCSV("sensors.csv", dataset.CSVOptions{LabelColumn: "condition"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{80, 80, 80}, d.ClassCounts()); diff != "" {
		t.Errorf("class counts (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"faulty", "normal", "worn"}, d.ClassNames); diff != "" {
		t.Errorf("classes (-want +got)\n%s", diff)
	}
}
