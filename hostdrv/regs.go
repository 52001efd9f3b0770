package hostdrv

import (
	"encoding/binary"
	"fmt"

	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/weights"
)

// The register map of docs/system-interface.md (version 1).
//
// TODO(driver): take it from the system RTL's Go table once it lands, so that
// the RTL, the docs and this header share one definition.

// Register is one AXI4-Lite register.
type Register struct {
	Name string
	Addr uint32
	Doc  string
}

// Bit is a named bit mask of a register.
type Bit struct {
	Name  string
	Value uint32
	Doc   string
}

// Identification register values.
const (
	IDValue      = 0x48444C47 // "HDLG"
	MapVersion   = 1
	ArchIntRVFL  = 1
	ArchRVFL8    = 2
	flagReload   = 1 << 16
	flagScores   = 1 << 17
	beatPayloadW = 30 // bits 31 and 30 are SOV and EOV
)

var registers = []Register{
	{"ID", 0x000, "R: 0x48444C47, \"HDLG\""},
	{"VERSION", 0x004, "R: register-map version"},
	{"MODEL_HASH_LO", 0x008, "R: SHA-256(model.json) bytes 0-3, big-endian"},
	{"MODEL_HASH_HI", 0x00C, "R: bytes 4-7"},
	{"SHAPE0", 0x010, "R: K[15:0] | L[31:16]"},
	{"SHAPE1", 0x014, "R: N"},
	{"SHAPE2", 0x018, "R: P[15:0] | kappa[23:16] | readout bits[31:24]"},
	{"SHAPE3", 0x01C, "R: arch[7:0] | LW[15:8] | flags[31:16]"},
	{"TIMING", 0x020, "R: latency[15:0] | II[31:16] (cycles)"},
	{"FRAMING", 0x024, "R: beats per vector[7:0] | levels per beat[15:8]"},
	{"CTRL", 0x040, "W: bit 0 clear counters, bit 1 swap readout banks, bit 2 irq enable"},
	{"STATUS", 0x044, "R/W1C: bit 0 bank, 1 swap pending, 2 busy, 8 framing error, 9 batch done"},
	{"COUNT_CLASSIFIED", 0x050, "R: vectors classified since clear"},
	{"COUNT_DROPPED", 0x054, "R: malformed vectors dropped since clear"},
	{"COUNT_STRAY", 0x058, "R: stray beats since clear"},
	{"COUNT_BATCHES", 0x05C, "R: input TLASTs since clear"},
	{"RO_ADDR", 0x080, "R/W: readout write pointer l*N + j (inactive bank)"},
	{"RO_DATA", 0x084, "W: one readout weight at RO_ADDR; RO_ADDR increments"},
}

var registerBits = []Bit{
	{"CTRL_CLEAR", 1 << 0, "CTRL: clear counters and sticky errors"},
	{"CTRL_SWAP", 1 << 1, "CTRL: swap readout banks at the next vector boundary"},
	{"CTRL_IRQ_EN", 1 << 2, "CTRL: interrupt enable"},
	{"STATUS_BANK", 1 << 0, "STATUS: active readout bank"},
	{"STATUS_SWAP_PENDING", 1 << 1, "STATUS: swap requested, not yet done"},
	{"STATUS_BUSY", 1 << 2, "STATUS: a vector in flight"},
	{"STATUS_FRAMING_ERROR", 1 << 8, "STATUS: sticky framing error (W1C)"},
	{"STATUS_BATCH_DONE", 1 << 9, "STATUS: batch done (W1C)"},
	{"SHAPE3_RELOADABLE", flagReload, "SHAPE3: reloadable readout"},
	{"SHAPE3_SCORES", flagScores, "SHAPE3: scores in the output"},
}

// Framing is the input stream's beat layout.
type Framing struct {
	LevelsPerBeat int // FPB = floor(30 / LW)
	Beats         int // B = ceil(K / FPB)
}

// FramingOf returns the framing of a plan's design.
func FramingOf(pl *plan.Plan) (Framing, error) {
	if pl.LW < 1 || pl.LW > beatPayloadW {
		return Framing{}, fmt.Errorf("hostdrv: %d-bit input elements do not fit a %d-bit beat payload", pl.LW, beatPayloadW)
	}
	fpb := beatPayloadW / pl.LW
	return Framing{LevelsPerBeat: fpb, Beats: (pl.K + fpb - 1) / fpb}, nil
}

// Expect is an identification register and the value the design reports.
type Expect struct {
	Name  string
	Value uint32
	Doc   string
}

// Identification returns the identification registers of a design and the
// values its hardware reports, in address order.
func Identification(pl *plan.Plan, h weights.Hash, fr Framing, reloadable, scores bool) []Expect {
	arch := uint32(ArchIntRVFL)
	if pl.Arch != "intrvfl" {
		arch = ArchRVFL8
	}
	flags := uint32(0)
	if reloadable {
		flags |= flagReload
	}
	if scores {
		flags |= flagScores
	}
	return []Expect{
		{"ID", IDValue, "\"HDLG\""},
		{"VERSION", MapVersion, "register-map version"},
		{"MODEL_HASH_LO", binary.BigEndian.Uint32(h[0:4]), "model hash, bytes 0-3"},
		{"MODEL_HASH_HI", binary.BigEndian.Uint32(h[4:8]), "model hash, bytes 4-7"},
		{"SHAPE0", uint32(pl.K) | uint32(pl.L)<<16, fmt.Sprintf("K=%d, L=%d", pl.K, pl.L)},
		{"SHAPE1", uint32(pl.N), fmt.Sprintf("N=%d", pl.N)},
		{"SHAPE2", uint32(pl.P) | uint32(pl.Kappa)<<16 | uint32(pl.ReadoutBits)<<24,
			fmt.Sprintf("P=%d, kappa=%d, readout bits=%d", pl.P, pl.Kappa, pl.ReadoutBits)},
		{"SHAPE3", arch | uint32(pl.LW)<<8 | flags, fmt.Sprintf("arch=%d, LW=%d, reloadable=%t, scores=%t", arch, pl.LW, reloadable, scores)},
		{"FRAMING", uint32(fr.Beats) | uint32(fr.LevelsPerBeat)<<8, fmt.Sprintf("B=%d, FPB=%d", fr.Beats, fr.LevelsPerBeat)},
	}
}
