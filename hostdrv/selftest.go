package hostdrv

import (
	"fmt"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/weights"
)

// MaxSelfTestVectors bounds the test vectors compiled into the driver's
// self-test (the first ones of the design's set).
const MaxSelfTestVectors = 1024

// MinSelfTestVectors is what the self-test's malformed-vector and flush
// checks use; a design with fewer test vectors repeats them (rtl).
const MinSelfTestVectors = 3

// SelfTest is the data of the on-board self-test (hdlgen_selftest.c): the
// design's test vectors — their input elements as vectors/tv_in.mem holds
// them — and the outputs expected of them, as vectors/tv_exp.mem holds them
// (the Go model's class and L scores).
type SelfTest struct {
	Inputs  [][]int
	Classes []int
	Scores  [][]int64
}

// check validates the self-test data against the plan.
func (st SelfTest) check(pl *plan.Plan) error {
	n := len(st.Inputs)
	if n < MinSelfTestVectors || len(st.Classes) != n || len(st.Scores) != n {
		return fmt.Errorf("hostdrv: self-test data of %d inputs, %d classes, %d score rows: want at least %d of each, as many",
			n, len(st.Classes), len(st.Scores), MinSelfTestVectors)
	}
	if pl.Layer() == nil {
		return fmt.Errorf("hostdrv: architecture %s has no hardware", pl.Arch)
	}
	maxIn := pl.Layer().MaxInput(pl) // levels N, or 255 for codes
	for v := range st.Inputs {
		if len(st.Inputs[v]) != pl.K || len(st.Scores[v]) != pl.L || st.Classes[v] < 0 || st.Classes[v] >= pl.L {
			return fmt.Errorf("hostdrv: self-test vector %d: %d inputs, %d scores, class %d (K=%d, L=%d)", v,
				len(st.Inputs[v]), len(st.Scores[v]), st.Classes[v], pl.K, pl.L)
		}
		for i, x := range st.Inputs[v] {
			if x < 0 || x > maxIn {
				return fmt.Errorf("hostdrv: self-test vector %d, feature %d: input %d outside [0, %d]", v, i, x, maxIn)
			}
		}
		for l, s := range st.Scores[v] {
			if s < -(1<<31) || s >= 1<<31 {
				return fmt.Errorf("hostdrv: self-test vector %d: score %d = %d does not fit 32 bits", v, l, s)
			}
		}
	}
	return nil
}

// selfTestView is what hdlgen_selftest_data.c.tmpl sees: the arrays as C
// initializer rows.
type selfTestView struct {
	N                      int
	Inputs, Scores         []string
	Classes, SwapClasses   string
	ImageSwap, ImageDesign []string
}

// newSelfTestView renders the self-test data of d: the first
// MaxSelfTestVectors test vectors, and for a reloadable design the readout
// images of the swap check (the design's readout negated, and the design's
// own) with the classes expected under the negated one.
func newSelfTestView(d Design) (selfTestView, error) {
	st := d.SelfTest
	if err := st.check(d.Plan); err != nil {
		return selfTestView{}, err
	}
	n := min(len(st.Inputs), MaxSelfTestVectors)
	v := selfTestView{N: n}
	var cls, swap []string
	for i := 0; i < n; i++ {
		v.Inputs = append(v.Inputs, joinInts(st.Inputs[i]))
		v.Scores = append(v.Scores, joinInts(st.Scores[i]))
		cls = append(cls, fmt.Sprint(st.Classes[i]))
		neg := make([]int64, len(st.Scores[i]))
		for l, s := range st.Scores[i] {
			neg[l] = -s
		}
		swap = append(swap, fmt.Sprint(model.ArgmaxInt(neg)))
	}
	v.Classes = wrap(cls)
	v.SwapClasses = wrap(swap)
	if !d.Identity.Reloadable {
		return v, nil
	}
	js, err := model.Marshal(d.Model)
	if err != nil {
		return selfTestView{}, fmt.Errorf("hostdrv: %w", err)
	}
	wd := weights.Design{Model: d.Model, JSON: js, Plan: d.Plan}
	negated, err := model.Unmarshal(js)
	if err != nil {
		return selfTestView{}, fmt.Errorf("hostdrv: %w", err)
	}
	negated.Name = d.Model.Name + " (readout negated, for the self-test)"
	for i := range negated.Readout.Q {
		negated.Readout.Q[i] = -negated.Readout.Q[i]
	}
	for _, c := range []struct {
		m   *model.Model
		dst *[]string
	}{{negated, &v.ImageSwap}, {d.Model, &v.ImageDesign}} {
		img, err := weights.New(wd, c.m)
		if err != nil {
			return selfTestView{}, fmt.Errorf("hostdrv: self-test readout image: %w", err)
		}
		b, err := img.MarshalBinary()
		if err != nil {
			return selfTestView{}, fmt.Errorf("hostdrv: self-test readout image: %w", err)
		}
		var parts []string
		for _, x := range b {
			parts = append(parts, fmt.Sprintf("0x%02x", x))
		}
		*c.dst = strings.Split(wrap(parts), "\n")
	}
	return v, nil
}

func joinInts[T int | int64](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

// wrap joins numbers with ", " into lines of at most about 100 characters.
func wrap(parts []string) string {
	var b strings.Builder
	line := 0
	for i, p := range parts {
		if i > 0 {
			b.WriteString(",")
			line++
			if line+len(p) > 100 {
				b.WriteString("\n")
				line = 0
			} else {
				b.WriteString(" ")
				line++
			}
		}
		if line == 0 {
			b.WriteString("    ")
			line = 4
		}
		b.WriteString(p)
		line += len(p)
	}
	return b.String()
}
