// Package weights writes and reads readout images: the integer readout of a
// model, packed for the run-time reload of a Zynq system design emitted with
// `hdlgen emit --system zynq --reloadable-readout` (docs/system-interface.md,
// "Readout reload semantics"). The host driver (driver/ in the design
// directory) loads an image into the system's inactive readout bank and swaps
// banks; `hdlgen weights` writes one.
//
// A readout can replace the design's only if everything before it is the
// same: the architecture, K, N, L, the normalisation (per-feature min and max,
// bit for bit: the host encoder's constants are compiled from the design's
// model.json), the hidden layer (intRVFL: κ and every W_in sign; rvfl8: every
// W_in and bias code and the sigmoid LUT), and a readout bound no larger than
// the design's (the score width AW and the readout RAM's word width are
// derived from it). Compatible names every difference; New refuses a model
// that differs.
//
// The image format (all integers little-endian; version 1):
//
//	offset  size     field
//	0       8        magic "HDLGRDO1"
//	8       4        format version (1)
//	12      4        header size in bytes (64)
//	16      8        design hash: the first 8 bytes of SHA-256(model.json) of the
//	                 design (what the MODEL_HASH_LO/HI registers hold)
//	24      8        model hash: the same of the model the readout comes from
//	32      4        L (classes)
//	36      4        N (readout columns)
//	40      4        bits: the readout word width of that model
//	44      4        bound B: every weight lies in [−B, B]
//	48      16       zero
//	64      4·L·N    weights, int32, row-major: weight l·N + j (the order of the
//	                 RO_ADDR register)
//	64+4LN  4        CRC-32 (IEEE) of every byte before it
//
// Images are deterministic: the same design and model give the same bytes.
package weights
