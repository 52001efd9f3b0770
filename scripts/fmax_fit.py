# Least-squares fit of the analytic Fmax estimate of power/size_fmax.go
# (docs/timing.md, "Analytic estimate for the sizer"): python3 scripts/fmax_fit.py scripts/fmax_fit_data.txt
# The data file holds each design's period from `hdlgen synth DIR` (R = adder levels per stage).
import math, sys
def clog2(n): return (n-1).bit_length() if n>1 else 0
def cuts(d,r): return 0 if d<=1 else (d-1)//r
def S(arch,K,P,r):
    dh = clog2(K) if arch=='intrvfl' else clog2(K+1)
    dl = clog2(P)
    lead = 1 if arch=='intrvfl' else 0
    def seg(d,c,lead):
        if c==0: return lead+d+1
        return max(lead+r, d-c*r+1)
    return max(seg(dh,cuts(dh,r),lead), seg(dl,cuts(dl,r),0))
# arch K P r period
data=[l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')]
rows=[]
for a,K,P,r,per,name in data:
    K,P,r,per=int(K),int(P),int(r),float(per)
    rows.append((a,S(a,K,P,r),math.log2(P),per,name))
# least squares: per = b_int*[a==int] + b_r8*[a==r8] + c*S + e*log2P
X=[[1.0 if a=='intrvfl' else 0.0, 1.0 if a=='rvfl8' else 0.0, s, lp] for a,s,lp,_,_ in rows]
y=[p for *_,p,_ in rows]
n=4
A=[[sum(X[k][i]*X[k][j] for k in range(len(X))) for j in range(n)] for i in range(n)]
b=[sum(X[k][i]*y[k] for k in range(len(X))) for i in range(n)]
# gaussian elimination
M=[A[i]+[b[i]] for i in range(n)]
for i in range(n):
    piv=max(range(i,n),key=lambda r:abs(M[r][i])); M[i],M[piv]=M[piv],M[i]
    for r in range(n):
        if r!=i:
            f=M[r][i]/M[i][i]
            M[r]=[M[r][c]-f*M[i][c] for c in range(n+1)]
coef=[M[i][n]/M[i][i] for i in range(n)]
print("base_int %.3f base_r8 %.3f perLevel %.3f perDoubling %.3f"%tuple(coef))
worst=0
for (a,s,lp,per,name),x in zip(rows,X):
    pred=sum(c*v for c,v in zip(coef,x))
    err=(1000/pred-1000/per)/(1000/per)*100
    worst=max(worst,abs(err))
    print("%-34s S=%d log2P=%.2f  period %.2f pred %.2f  Fmax %.1f pred %.1f (%+.1f %%)"%(name,s,lp,per,pred,1000/per,1000/pred,err))
print("worst |err| %.1f %%"%worst)
