package rtl

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/vivado"
)

// This file and ice40_driver.go are the only places that know about the
// hostdrv and vivado packages: they write the host driver (driver/) and the
// Vivado block design (vivado/system.tcl) of a Zynq system design, through
// systemExtraFiles (extern.go), and the iCEBreaker's serial driver.

func init() { systemExtraFiles = addZynqFiles }

// addZynqFiles adds the system design's driver and block design to files,
// refusing a name that is already taken.
func addZynqFiles(files map[string][]byte, m *model.Model, pl *plan.Plan, id regmap.Identity, top string, rtlFiles, memFiles []string) error {
	st, err := selfTestData(files, pl)
	if err != nil {
		return err
	}
	zf, err := hostdrv.Files(hostdrv.Design{Model: m, Plan: pl, Identity: id, Top: top, RTLFiles: rtlFiles, MemFiles: memFiles,
		ClockHz: board.ClockHz, SelfTest: st})
	if err != nil {
		return fmt.Errorf("rtl: system software: %w", err)
	}
	tcl, err := vivado.Files(vivado.Design{Prefix: pl.Prefix, Top: top, Board: board.ZedBoard.Name, Part: board.Part,
		ClockHz: board.ClockHz, AddrW: regmap.AddrW, RTLFiles: rtlFiles, MemFiles: memFiles})
	if err != nil {
		return fmt.Errorf("rtl: system software: %w", err)
	}
	for name, b := range tcl {
		zf[name] = b
	}
	for name, b := range zf {
		if err := checkRel(name); err != nil {
			return fmt.Errorf("rtl: system software: %w", err)
		}
		if _, dup := files[name]; dup {
			return fmt.Errorf("rtl: system software file %s collides with a generated file", name)
		}
		files[name] = b
	}
	return nil
}

// selfTestData reads the design's test vectors back from the emitted
// vectors/tv_in.mem (K elements of LW bits each) and their expected outputs
// from vectors/tv_exp.mem (the class in CW bits, then L scores of AW bits,
// two's complement), for the driver's self-test: it checks the hardware
// against exactly the files the testbenches check the RTL against. A design
// with fewer than hostdrv.MinSelfTestVectors vectors has them repeated.
func selfTestData(files map[string][]byte, pl *plan.Plan) (hostdrv.SelfTest, error) {
	in, err := memRows(files, "vectors/tv_in.mem")
	if err != nil {
		return hostdrv.SelfTest{}, err
	}
	exp, err := memRows(files, "vectors/tv_exp.mem")
	if err != nil {
		return hostdrv.SelfTest{}, err
	}
	if len(in) != len(exp) {
		return hostdrv.SelfTest{}, fmt.Errorf("rtl: internal error: %d test vectors, %d expected outputs", len(in), len(exp))
	}
	if len(in) == 0 {
		return hostdrv.SelfTest{}, fmt.Errorf("rtl: internal error: no test vectors for the self-test")
	}
	n := min(max(len(in), hostdrv.MinSelfTestVectors), hostdrv.MaxSelfTestVectors)
	st := hostdrv.SelfTest{Inputs: make([][]int, n), Classes: make([]int, n), Scores: make([][]int64, n)}
	field := func(x *big.Int, lsb, width int, signed bool) int64 {
		v := new(big.Int).Rsh(x, uint(lsb))
		v.And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(width)), big.NewInt(1)))
		u := v.Int64()
		if signed && width < 64 && u>>(width-1)&1 == 1 {
			u -= 1 << width
		}
		return u
	}
	for v := 0; v < n; v++ {
		src := v % len(in)
		st.Inputs[v] = make([]int, pl.K)
		for i := range st.Inputs[v] {
			st.Inputs[v][i] = int(field(in[src], i*pl.LW, pl.LW, false))
		}
		st.Classes[v] = int(field(exp[src], 0, pl.CW, false))
		st.Scores[v] = make([]int64, pl.L)
		for l := range st.Scores[v] {
			st.Scores[v][l] = field(exp[src], pl.CW+l*pl.AW, pl.AW, true)
		}
	}
	return st, nil
}

// memRows parses a $readmemh file of one hexadecimal word per line.
func memRows(files map[string][]byte, name string) ([]*big.Int, error) {
	b, ok := files[name]
	if !ok {
		return nil, fmt.Errorf("rtl: internal error: no %s for the driver's self-test", name)
	}
	var rows []*big.Int
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		x, ok := new(big.Int).SetString(line, 16)
		if !ok {
			return nil, fmt.Errorf("rtl: internal error: %s:%d: %q is not hexadecimal", name, i+1, line)
		}
		rows = append(rows, x)
	}
	return rows, nil
}
