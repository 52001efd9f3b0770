package rtl

import (
	"fmt"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/vivado"
)

// This file is the only place that knows about the hostdrv and vivado
// packages: they write the host driver (driver/) and the Vivado block design
// (vivado/system.tcl) of a Zynq system design, through systemExtraFiles
// (extern.go).

func init() { systemExtraFiles = addZynqFiles }

// addZynqFiles adds the system design's driver and block design to files,
// refusing a name that is already taken.
func addZynqFiles(files map[string][]byte, m *model.Model, pl *plan.Plan, id regmap.Identity, top string, rtlFiles, memFiles []string) error {
	zf, err := hostdrv.Files(hostdrv.Design{Model: m, Plan: pl, Identity: id, Top: top, RTLFiles: rtlFiles, MemFiles: memFiles})
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
