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
