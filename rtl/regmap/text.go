package regmap

import (
	"fmt"
	"strings"
)

// Markdown returns the register table of docs/system-interface.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| offset | register | access | content |\n| --- | --- | --- | --- |\n")
	for _, r := range Registers {
		content := r.Doc
		if len(r.Fields) > 0 {
			parts := make([]string, len(r.Fields))
			for i, f := range r.Fields {
				acc := ""
				if f.Access != r.Access {
					acc = " (" + string(f.Access) + ")"
				}
				parts[i] = fmt.Sprintf("%s %s%s: %s", bitRange(f), f.Name, acc, f.Doc)
			}
			content = strings.Join(parts, "; ")
		}
		fmt.Fprintf(&b, "| 0x%03X | %s | %s | %s |\n", r.Offset, r.Name, r.Access, content)
	}
	return b.String()
}

func bitRange(f Field) string {
	if f.Width == 1 {
		return fmt.Sprintf("[%d]", f.LSB)
	}
	return fmt.Sprintf("[%d:%d]", f.LSB+f.Width-1, f.LSB)
}

// CDefines returns C preprocessor definitions of the register map and the
// stream layouts, every name prefixed with prefix (e.g. "HDLGEN"):
//
//	PREFIX_REG_<REGISTER>                  byte offset
//	PREFIX_<REGISTER>_<FIELD>_SHIFT/_MASK  field position and mask (in place)
//	PREFIX_ID_VALUE, PREFIX_MAP_VERSION, PREFIX_BEAT_SOV, PREFIX_BEAT_EOV,
//	PREFIX_BEAT_PAYLOAD, PREFIX_RECORD_*_SHIFT, PREFIX_RECORD_*_BITS,
//	PREFIX_FLAG_DROPPED, PREFIX_FLAG_BANK, PREFIX_FLAG_MARKER
func CDefines(prefix string) string {
	var b strings.Builder
	def := func(name, value string) { fmt.Fprintf(&b, "#define %s_%s %s\n", prefix, name, value) }
	def("ID_VALUE", fmt.Sprintf("0x%08Xu", IDValue))
	def("MAP_VERSION", fmt.Sprintf("%du", Version))
	for _, r := range Registers {
		def("REG_"+r.Name, fmt.Sprintf("0x%03Xu", r.Offset))
	}
	for _, r := range Registers {
		for _, f := range r.Fields {
			def(r.Name+"_"+f.Name+"_SHIFT", fmt.Sprintf("%d", f.LSB))
			def(r.Name+"_"+f.Name+"_MASK", fmt.Sprintf("0x%08Xu", f.Mask()))
		}
	}
	def("BEAT_SOV", fmt.Sprintf("0x%08Xu", uint32(BeatSOV)))
	def("BEAT_EOV", fmt.Sprintf("0x%08Xu", uint32(BeatEOV)))
	def("BEAT_PAYLOAD", fmt.Sprintf("%d", BeatPayload))
	def("RECORD_TAG_SHIFT", fmt.Sprintf("%d", RecordTagShift))
	def("RECORD_SEQ_SHIFT", fmt.Sprintf("%d", RecordSeqShift))
	def("RECORD_FLAGS_SHIFT", fmt.Sprintf("%d", RecordFlagsShift))
	def("RECORD_CLASS_BITS", fmt.Sprintf("%d", RecordClassBits))
	def("RECORD_TAG_BITS", fmt.Sprintf("%d", RecordTagBits))
	def("RECORD_SEQ_BITS", fmt.Sprintf("%d", RecordSeqBits))
	def("FLAG_DROPPED", fmt.Sprintf("0x%Xu", FlagDropped))
	def("FLAG_BANK", fmt.Sprintf("0x%Xu", FlagBank))
	def("FLAG_MARKER", fmt.Sprintf("0x%Xu", FlagMarker))
	return b.String()
}
