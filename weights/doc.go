// Package weights writes and reads readout images: the integer readout of a
// model, packed for the run-time reload of a Zynq system design emitted with
// `hdlgen emit --system zynq --reloadable-readout` (docs/system-interface.md,
// "Readout reload semantics"). The host driver (driver/ in the design
// directory) loads an image into the system's inactive readout bank and swaps
// banks; `hdlgen weights` writes one.
//
// A readout can replace the design's only if everything before it is the
// same: the architecture, K, N, L, the class names in the same order (readout
// row l scores class l, and the driver names predictions with the design's
// class names), the normalisation (per-feature min and max,
// bit for bit: the host encoder's constants are compiled from the design's
// model.json), the hidden layer (intRVFL: κ and every W_in sign; rvfl8: every
// W_in and bias code and the sigmoid LUT), and a readout bound no larger than
// the design's (the score width AW and the readout RAM's word width are
// derived from it). Compatible names every difference; New refuses a model
// that differs.
//
// The image is the sequence of RO_DATA writes that fills a bank (the
// register map's readout window, regmap.ReadoutImage), wrapped in a header
// that names the design it is for. All integers little-endian; version 2:
//
//	offset  size     field
//	0       8        magic "HDLGRDO1"
//	8       4        format version (2)
//	12      4        header size in bytes (72)
//	16      8        design hash: the first 8 bytes of SHA-256(model.json) of the
//	                 design (what its MODEL_HASH_LO/HI registers read)
//	24      8        model hash: the same of the model the readout comes from
//	32      4        L (classes)
//	36      4        N (readout columns)
//	40      4        P (the design's weights per class in a readout word)
//	44      4        bits: the readout word width of the model
//	48      4        bound B: every weight lies in [−B, B]
//	52      4        QW: bits of one weight in a readout word (READOUT.QW)
//	56      4        G: readout words (READOUT.WORDS)
//	60      4        C: 32-bit chunks per word (READOUT.CHUNKS)
//	64      8        class hash: ClassHash of the model's class names, in
//	                 order (the driver compares it with its design's)
//	72      4·G·C    the chunks, word 0 first, each word's least significant
//	                 chunk first: the RO_DATA writes after RO_ADDR = 0
//	72+4GC  4        CRC-32 (IEEE) of every byte before it
//
// Version 1 (a 64-byte header without the class hash) is not read: it could
// not tell a readout whose classes come in another order.
//
// Word g holds Q[l][g·P+p] in bits (l·P+p)·QW +: QW (two's complement, lanes
// beyond N−1 zero), the layout of the readout .mem file. Parse unpacks the
// weights again and checks every padding bit. Images are deterministic: the
// same design and model give the same bytes.
package weights
