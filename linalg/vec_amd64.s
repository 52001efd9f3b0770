//go:build amd64

#include "textflag.h"

// Vector kernels of the tridiagonalisation (AVX2+FMA): four accumulators
// of four doubles, 16 elements per iteration, the remainder one by one.

// func dotAVX2(x, y *float64, n int) float64
// Σ x[i]·y[i]; the partial sums are added as ((s0+s1)+(s2+s3)), lane 0…3
// in order, then the tail.
TEXT ·dotAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ CX, BX
	SHRQ $4, BX
	JZ   dottail
dotloop:
	VMOVUPD 0(SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y6
	VMOVUPD 96(SI), Y7
	VFMADD231PD 0(DI), Y4, Y0
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ BX
	JNZ  dotloop
dottail:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	ANDQ $15, CX
	JZ   dotdone
dotrem:
	VMOVSD (SI), X1
	VFMADD231SD (DI), X1, X0
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  dotrem
dotdone:
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func axpyAVX2(y *float64, a float64, x *float64, n int)
// y[i] += a·x[i].
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	VBROADCASTSD a+8(FP), Y8
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ CX, BX
	SHRQ $4, BX
	JZ   axpytail
axpyloop:
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VFMADD231PD 0(SI), Y8, Y0
	VFMADD231PD 32(SI), Y8, Y1
	VFMADD231PD 64(SI), Y8, Y2
	VFMADD231PD 96(SI), Y8, Y3
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ BX
	JNZ  axpyloop
axpytail:
	ANDQ $15, CX
	JZ   axpydone
axpyrem:
	VMOVSD (DI), X0
	VFMADD231SD (SI), X8, X0
	VMOVSD X0, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  axpyrem
axpydone:
	VZEROUPPER
	RET

// func sqDevInt8AVX512(d, mean *float64, x *int8, n int)
// d[j] += (float64(x[j]) − mean[j])², eight at a time (n a multiple of 8):
// sign-extend, convert (exact), subtract, square, add, each rounded.
TEXT ·sqDevInt8AVX512(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ mean+8(FP), SI
	MOVQ x+16(FP), BX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
sqdloop:
	VPMOVSXBD (BX), Y0
	VCVTDQ2PD Y0, Z1
	VSUBPD (SI), Z1, Z1
	VMULPD Z1, Z1, Z1
	VADDPD (DI), Z1, Z1
	VMOVUPD Z1, (DI)
	ADDQ $8, BX
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  sqdloop
	VZEROUPPER
	RET

// func addInt8AVX512(acc *int32, x *int8, n int)
// acc[j] += x[j] (sign-extended), sixteen at a time (n a multiple of 16).
TEXT ·addInt8AVX512(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
ai8loop:
	VPMOVSXBD (SI), Z0
	VPADDD (DI), Z0, Z0
	VMOVDQU32 Z0, (DI)
	ADDQ $16, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  ai8loop
	VZEROUPPER
	RET

// func clipInt16SSE2(dst *int8, src *int16, c int, n int)
// dst[j] = min(max(src[j], −c), c), sixteen at a time (n a multiple of 16);
// the packing to bytes cannot saturate, the values lying in [−127, 127].
TEXT ·clipInt16SSE2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ c+16(FP), AX
	MOVQ n+24(FP), CX
	SHRQ $4, CX
	MOVQ AX, X6
	PSHUFLW $0, X6, X6
	PSHUFL $0, X6, X6
	PXOR X7, X7
	PSUBW X6, X7
cliploop:
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	PMINSW X6, X0
	PMINSW X6, X1
	PMAXSW X7, X0
	PMAXSW X7, X1
	PACKSSWB X1, X0
	MOVOU X0, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  cliploop
	RET

// func symvRowAVX512(row, v, y *float64, a float64, n int) float64
// Returns Σ row[i]·v[i] exactly as dotAVX2 (partial sums of the elements
// i mod 16 = 0…7 in Z0 and 8…15 in Z1, i.e. dotAVX2's Y0|Y1 and Y2|Y3;
// reduced ((Y0+Y1)+(Y2+Y3)), halves, pair; then the tail one by one) and
// does y[i] += a·row[i] (one FMA each, as axpyAVX2), in one pass over row.
TEXT ·symvRowAVX512(SB), NOSPLIT, $0-48
	MOVQ row+0(FP), SI
	MOVQ v+8(FP), BX
	MOVQ y+16(FP), DI
	VBROADCASTSD a+24(FP), Z8
	MOVQ n+32(FP), CX
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	MOVQ CX, DX
	SHRQ $4, DX
	JZ   symvred
symvloop:
	VMOVUPD 0(SI), Z2
	VMOVUPD 64(SI), Z3
	VFMADD231PD 0(BX), Z2, Z0
	VFMADD231PD 64(BX), Z3, Z1
	VMOVUPD 0(DI), Z4
	VMOVUPD 64(DI), Z5
	VFMADD231PD Z2, Z8, Z4
	VFMADD231PD Z3, Z8, Z5
	VMOVUPD Z4, 0(DI)
	VMOVUPD Z5, 64(DI)
	ADDQ $128, SI
	ADDQ $128, BX
	ADDQ $128, DI
	DECQ DX
	JNZ  symvloop
symvred:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y3
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	ANDQ $15, CX
	JZ   symvdone
symvrem:
	VMOVSD (SI), X1
	VFMADD231SD (BX), X1, X0
	VMOVSD (DI), X2
	VFMADD231SD X1, X8, X2
	VMOVSD X2, (DI)
	ADDQ $8, SI
	ADDQ $8, BX
	ADDQ $8, DI
	DECQ CX
	JNZ  symvrem
symvdone:
	VZEROUPPER
	MOVSD X0, ret+40(FP)
	RET

// func panelTransMatvecAVX512(w, v, x *float64, rows int, c1, c2 *float64)
// c1[s] = Σ_r w[r·32+s]·x[r], c2[s] = Σ_r v[r·32+s]·x[r] (s < 32), each
// product rounded (VMULPD) then added (VADDPD), rows in order.
TEXT ·panelTransMatvecAVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ v+8(FP), BX
	MOVQ x+16(FP), DX
	MOVQ rows+24(FP), CX
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z6, Z6, Z6
	VXORPD Z7, Z7, Z7
ptmloop:
	VBROADCASTSD (DX), Z8
	VMULPD 0(SI), Z8, Z9
	VMULPD 64(SI), Z8, Z10
	VMULPD 128(SI), Z8, Z11
	VMULPD 192(SI), Z8, Z12
	VADDPD Z9, Z0, Z0
	VADDPD Z10, Z1, Z1
	VADDPD Z11, Z2, Z2
	VADDPD Z12, Z3, Z3
	VMULPD 0(BX), Z8, Z9
	VMULPD 64(BX), Z8, Z10
	VMULPD 128(BX), Z8, Z11
	VMULPD 192(BX), Z8, Z12
	VADDPD Z9, Z4, Z4
	VADDPD Z10, Z5, Z5
	VADDPD Z11, Z6, Z6
	VADDPD Z12, Z7, Z7
	ADDQ $256, SI
	ADDQ $256, BX
	ADDQ $8, DX
	DECQ CX
	JNZ  ptmloop
	MOVQ c1+32(FP), DI
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	MOVQ c2+40(FP), DI
	VMOVUPD Z4, 0(DI)
	VMOVUPD Z5, 64(DI)
	VMOVUPD Z6, 128(DI)
	VMOVUPD Z7, 192(DI)
	VZEROUPPER
	RET

// func dot2RowsAVX512(v, w *float64, ld int, x1, x2 *float64, t, rows int, out *float64)
// out[r] = dot(v[r·ld:][:t], x1) + dot(w[r·ld:][:t], x2) for r < rows, each
// dot computed exactly as dotAVX2 (sixteen partial sums in two vectors of
// eight, the same reduction, then the tail one by one).
TEXT ·dot2RowsAVX512(SB), NOSPLIT, $0-64
	MOVQ v+0(FP), SI
	MOVQ w+8(FP), BX
	MOVQ ld+16(FP), R8
	SHLQ $3, R8
	MOVQ x1+24(FP), R13
	MOVQ x2+32(FP), R14
	MOVQ t+40(FP), R9
	MOVQ rows+48(FP), CX
	MOVQ out+56(FP), DI
d2row:
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	MOVQ SI, R10
	MOVQ R13, R11
	MOVQ R9, R12
	SHRQ $4, R12
	JZ   d2ared
d2aloop:
	VMOVUPD 0(R10), Z2
	VMOVUPD 64(R10), Z3
	VFMADD231PD 0(R11), Z2, Z0
	VFMADD231PD 64(R11), Z3, Z1
	ADDQ $128, R10
	ADDQ $128, R11
	DECQ R12
	JNZ  d2aloop
d2ared:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y3
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	MOVQ R9, R12
	ANDQ $15, R12
	JZ   d2adone
d2arem:
	VMOVSD (R10), X1
	VFMADD231SD (R11), X1, X0
	ADDQ $8, R10
	ADDQ $8, R11
	DECQ R12
	JNZ  d2arem
d2adone:
	VMOVAPD X0, X4
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	MOVQ BX, R10
	MOVQ R14, R11
	MOVQ R9, R12
	SHRQ $4, R12
	JZ   d2bred
d2bloop:
	VMOVUPD 0(R10), Z2
	VMOVUPD 64(R10), Z3
	VFMADD231PD 0(R11), Z2, Z0
	VFMADD231PD 64(R11), Z3, Z1
	ADDQ $128, R10
	ADDQ $128, R11
	DECQ R12
	JNZ  d2bloop
d2bred:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y3
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	MOVQ R9, R12
	ANDQ $15, R12
	JZ   d2bdone
d2brem:
	VMOVSD (R10), X1
	VFMADD231SD (R11), X1, X0
	ADDQ $8, R10
	ADDQ $8, R11
	DECQ R12
	JNZ  d2brem
d2bdone:
	VADDSD X0, X4, X4
	VMOVSD X4, (DI)
	ADDQ R8, SI
	ADDQ R8, BX
	ADDQ $8, DI
	DECQ CX
	JNZ  d2row
	VZEROUPPER
	RET
