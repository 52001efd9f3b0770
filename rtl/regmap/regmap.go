package regmap

import "fmt"

// Window and identification constants.
const (
	// AddrW is the width of the AXI4-Lite byte address (a 4 KiB window).
	AddrW = 12
	// IDValue is what the ID register reads: "HDLG" in ASCII.
	IDValue = 0x48444C47
	// Version is the register-map version the VERSION register reads; it
	// changes whenever a register, a field or a stream layout changes.
	Version = 2
)

// Access is how software may use a register or field.
type Access string

// Access kinds.
const (
	R   Access = "R"     // read only; writes are ignored
	RW  Access = "R/W"   // read and write
	W   Access = "W"     // write only; reads return 0
	W1  Access = "W1"    // write 1 to act; reads return 0
	W1C Access = "R/W1C" // read; writing 1 clears the bit
)

// Field is a named bit range of a register.
type Field struct {
	Name   string
	LSB    int
	Width  int
	Access Access
	Doc    string
}

// Mask is the field's mask within its register.
func (f Field) Mask() uint32 { return uint32((uint64(1)<<f.Width - 1) << f.LSB) }

// Register is one 32-bit AXI4-Lite register.
type Register struct {
	Name   string
	Offset uint32
	Access Access
	// Const marks an identification register: its value is fixed when the
	// design is emitted (Identity.Values).
	Const  bool
	Doc    string
	Fields []Field // empty: the register is one 32-bit value
}

// Registers is the register map, in address order. An access to an address
// not listed (or to RO_ADDR/RO_DATA of a design without a reloadable readout),
// a write to a read-only register and a write whose WSTRB is not 4'b1111 are
// answered SLVERR and have no effect (a read then returns 0).
var Registers = []Register{
	{Name: "ID", Offset: 0x000, Access: R, Const: true, Doc: `0x48444C47 ("HDLG")`},
	{Name: "VERSION", Offset: 0x004, Access: R, Const: true, Doc: "register-map version (2)"},
	{Name: "MODEL_HASH_LO", Offset: 0x008, Access: R, Const: true, Doc: "bytes 0–3 of SHA-256(model.json as emitted), big-endian: the first 8 hex digits of `sha256sum DIR/model.json`"},
	{Name: "MODEL_HASH_HI", Offset: 0x00C, Access: R, Const: true, Doc: "bytes 4–7 of the same hash"},
	{Name: "SHAPE0", Offset: 0x010, Access: R, Const: true, Fields: []Field{
		{"K", 0, 16, R, "features"},
		{"L", 16, 16, R, "classes"}}},
	{Name: "SHAPE1", Offset: 0x014, Access: R, Const: true, Doc: "N, hidden neurons"},
	{Name: "SHAPE2", Offset: 0x018, Access: R, Const: true, Fields: []Field{
		{"P", 0, 16, R, "hidden neurons per clock"},
		{"KAPPA", 16, 8, R, "κ (intRVFL; 0 for rvfl8; 255 when κ > 255)"},
		{"BITS", 24, 8, R, "the model's readout bits"}}},
	{Name: "SHAPE3", Offset: 0x01C, Access: R, Const: true, Fields: []Field{
		{"ARCH", 0, 8, R, "1 intRVFL, 2 rvfl8, 4 two-layer intRVFL, 5 random conjunctions, 6 intRVFL neurons and conjunctions"},
		{"LW", 8, 8, R, "bits of one input element (level or code)"},
		{"RELOADABLE", 16, 1, R, "emitted with --reloadable-readout: RO_ADDR/RO_DATA and the bank swap exist"},
		{"SCORES", 17, 1, R, "results carry the L scores after beat 0"}}},
	{Name: "TIMING", Offset: 0x020, Access: R, Const: true, Fields: []Field{
		{"LATENCY", 0, 16, R, "cycles from a vector's last input beat to its result's first beat, nothing stalled"},
		{"II", 16, 16, R, "cycles per vector of the classifier (one vector every II cycles)"}}},
	{Name: "FRAMING", Offset: 0x024, Access: R, Const: true, Fields: []Field{
		{"BEATS", 0, 16, R, "B = ⌈K / FPB⌉ input beats per vector"},
		{"PER_BEAT", 16, 8, R, "FPB = ⌊30 / LW⌋ input elements per beat"}}},
	{Name: "READOUT", Offset: 0x028, Access: R, Const: true, Fields: []Field{
		{"WORDS", 0, 16, R, "G = ⌈N / P⌉ readout words per bank"},
		{"CHUNKS", 16, 8, R, "C = ⌈P·L·QW / 32⌉ RO_DATA writes per word"},
		{"QW", 24, 8, R, "bits of one weight in a word (two's complement)"}}},
	{Name: "CTRL", Offset: 0x040, Access: RW, Fields: []Field{
		{"CLEAR", 0, 1, W1, "clear the four counters and STATUS bits 8–10"},
		{"SWAP", 1, 1, W1, "swap the readout banks (reloadable designs; see the reload semantics)"},
		{"IRQ_EN", 2, 1, RW, "irq_o = IRQ_EN && STATUS.BATCH_DONE"},
		{"FLUSH", 3, 1, W1, "drop everything in flight: the vector being received, the classifier's vectors, the record queue and the record being sent (see Flush)"}}},
	{Name: "STATUS", Offset: 0x044, Access: W1C, Fields: []Field{
		{"BANK", 0, 1, R, "the active readout bank: every vector accepted now uses it"},
		{"SWAP_PENDING", 1, 1, R, "vectors accepted before the last swap still use the other bank; RO_DATA writes are ignored"},
		{"BUSY", 2, 1, R, "a vector is being received, or a vector or record is waiting to be sent"},
		{"FRAMING_ERROR", 8, 1, W1C, "sticky: a vector was dropped or a stray beat arrived"},
		{"BATCH_DONE", 9, 1, W1C, "sticky: a record with TLAST was sent (a batch finished)"},
		{"RO_IGNORED", 10, 1, W1C, "sticky: an RO_DATA write came while SWAP_PENDING and was ignored"}}},
	{Name: "BATCH", Offset: 0x048, Access: RW, Fields: []Field{
		{"TAG", 0, 8, RW, "the batch tag: every record whose vector (or stray TLAST beat) is accepted from now on carries it"}}},
	{Name: "COUNT_CLASSIFIED", Offset: 0x050, Access: R, Doc: "classified records sent since CLEAR (wraps)"},
	{Name: "COUNT_DROPPED", Offset: 0x054, Access: R, Doc: "malformed vectors dropped since CLEAR (wraps)"},
	{Name: "COUNT_STRAY", Offset: 0x058, Access: R, Doc: "stray beats (no vector in progress) since CLEAR (wraps)"},
	{Name: "COUNT_BATCHES", Offset: 0x05C, Access: R, Doc: "records with TLAST sent since CLEAR: finished batches (wraps)"},
	{Name: "RO_ADDR", Offset: 0x080, Access: RW, Doc: "reloadable designs: the readout word (0…G−1) of the inactive bank that RO_DATA fills; a write also restarts the word at chunk 0"},
	{Name: "RO_DATA", Offset: 0x084, Access: W, Doc: "reloadable designs: the next 32-bit chunk of word RO_ADDR; the C-th chunk writes the word and increments RO_ADDR"},
}

// Lookup returns the register called name; it panics for an unknown name (a
// programmer error).
func Lookup(name string) Register {
	for _, r := range Registers {
		if r.Name == name {
			return r
		}
	}
	panic("regmap: no register " + name)
}

// Offset returns the byte address of register name.
func Offset(name string) uint32 { return Lookup(name).Offset }

// FieldOf returns field f of register reg; it panics when there is none.
func FieldOf(reg, f string) Field {
	for _, x := range Lookup(reg).Fields {
		if x.Name == f {
			return x
		}
	}
	panic(fmt.Sprintf("regmap: register %s has no field %s", reg, f))
}

// Bit returns the mask of one-bit field f of register reg.
func Bit(reg, f string) uint32 {
	x := FieldOf(reg, f)
	if x.Width != 1 {
		panic(fmt.Sprintf("regmap: %s.%s is %d bits wide", reg, f, x.Width))
	}
	return x.Mask()
}

// Input beat layout (32-bit TDATA of the input stream).
const (
	// BeatSOV marks a vector's first beat, BeatEOV its last.
	BeatSOV = 1 << 31
	BeatEOV = 1 << 30
	// BeatPayload is the number of bits below the markers that carry input
	// elements: element j of a beat is bits [j·LW +: LW], FPB = ⌊BeatPayload/LW⌋.
	BeatPayload = 30
)

// Output record layout: beat 0 of every record.
const (
	// RecordTagShift, RecordSeqShift, RecordFlagsShift: beat 0 is
	// {tag[7:0], seq[7:0], flags[3:0], class[11:0]}.
	RecordTagShift   = 24
	RecordSeqShift   = 16
	RecordFlagsShift = 12
	RecordClassBits  = 12
	// RecordTagBits and RecordSeqBits are the widths of the tag and seq fields.
	RecordTagBits = 8
	RecordSeqBits = 8
	// Flags.
	FlagDropped = 1 << 0 // a malformed vector: class 0, no score beats
	FlagBank    = 1 << 1 // classified with readout bank 1
	FlagMarker  = 1 << 2 // a stray beat with TLAST ended the batch: class 0, no score beats
)

// Record returns beat 0 of a record: the batch tag, the record's index in
// its batch (mod 2^8), its flags and class.
func Record(tag, seq int, flags uint32, class int) uint32 {
	return uint32(tag&(1<<RecordTagBits-1))<<RecordTagShift | uint32(seq&(1<<RecordSeqBits-1))<<RecordSeqShift |
		(flags&0xf)<<RecordFlagsShift | uint32(class)&(1<<RecordClassBits-1)
}

// Framing returns the input elements per beat (FPB) and beats per vector (B)
// for K elements of LW bits; ok is false when LW does not fit a beat.
func Framing(k, lw int) (perBeat, beats int, ok bool) {
	if lw < 1 || lw > BeatPayload || k < 1 {
		return 0, 0, false
	}
	perBeat = BeatPayload / lw
	return perBeat, (k + perBeat - 1) / perBeat, true
}

// Writable reports whether software may write register r (every access but
// R); a write to any other register is answered SLVERR.
func (r Register) Writable() bool { return r.Access != R }
