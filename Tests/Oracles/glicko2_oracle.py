# An independent Glicko-2 (Glickman, "Example of the Glicko-2 system", steps 1-8) for the
# full-precision vectors in Tests/SetRatingsTests: python3 Tests/Oracles/glicko2_oracle.py
import math
S=173.7178
def g(phi): return 1/math.sqrt(1+3*phi*phi/math.pi**2)
def E(mu,muj,phij): return 1/(1+math.exp(-g(phij)*(mu-muj)))
def rate(r,rd,sig,opps,tau):
    mu=(r-1500)/S; phi=rd/S
    v=1/sum(g(oj[1]/S)**2*E(mu,(oj[0]-1500)/S,oj[1]/S)*(1-E(mu,(oj[0]-1500)/S,oj[1]/S)) for oj in opps)
    d=v*sum(g(oj[1]/S)*(oj[2]-E(mu,(oj[0]-1500)/S,oj[1]/S)) for oj in opps)
    a=math.log(sig*sig)
    f=lambda x: math.exp(x)*(d*d-phi*phi-v-math.exp(x))/(2*(phi*phi+v+math.exp(x))**2)-(x-a)/tau**2
    A=a
    if d*d>phi*phi+v: B=math.log(d*d-phi*phi-v)
    else:
        k=1
        while f(a-k*tau)<0: k+=1
        B=a-k*tau
    fA=f(A); fB=f(B)
    while abs(B-A)>0.000001:
        C=A+(A-B)*fA/(fB-fA); fC=f(C)
        if fC*fB<=0: A=B; fA=fB
        else: fA=fA/2
        B=C; fB=fC
    s2=math.exp(A/2)
    ps=math.sqrt(phi*phi+s2*s2)
    p2=1/math.sqrt(1/ps**2+1/v)
    m2=mu+p2*p2*sum(g(oj[1]/S)*(oj[2]-E(mu,(oj[0]-1500)/S,oj[1]/S)) for oj in opps)
    return (S*m2+1500, S*p2, s2)
print(repr(rate(1500,200,0.06,[(1400,30,1),(1550,100,0),(1700,300,0)],0.5)))
print(repr(rate(1500,350,0.06,[(1500,350,1)],0.75)))
print(repr(rate(1620,80,0.059,[(1480,240,0.5)],0.75)))
print(repr(rate(1850,60,0.05,[(1200,45,0)],0.75)))
