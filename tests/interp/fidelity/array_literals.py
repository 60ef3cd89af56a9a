"""Compound assignments: `[k]=v{1,2}` in an indexed array is brace-expanded as a whole word
(plain values); an associative array's values see no braces and no tilde; `[k]+=v` in an
associative literal appends to the value before the assignment."""

from tests.interp.cases import case

CASES = [
    case("indexed-braced-elements", r"""c=([k1]=v1 -{a,b}- [k2]=-{a,b}-); declare -p c
d=([k]=a{1,2}b [j]=z); declare -p d
e=(x [5]=p{1..2} y); declare -p e
f=([1]="{a,b}" [2]='{c,d}' [3]=\{e,f\}); declare -p f
"""),
    case("assoc-no-brace-no-tilde", r"""HOME=/h
declare -A m=([k]=~ [j]=~:~ [~]=v [b]={x,y} [c]=~/d); declare -p m
declare -A n; n=([k]=~root [j]=a:~); declare -p n
f() { local -A lm=([k]=~ [q]={1,2}); declare -p lm; }; f
a=([0]=~ [1]=~:~ x=~ ~); declare -p a
"""),
    case("assoc-append-in-literal", r"""declare -A n=([h]=1 [h]+=2); declare -p n
n=([h]=1 [h]+=:34 [h]+=:56); declare -p n
n+=([h]+=x [h]+=y); declare -p n
b=([0]=1 [0]+=2 [3]+=x); declare -p b
declare -A e=(); e=([z]+=1 [z]+=2); declare -p e
"""),
    case("braced-in-declare-and-local", r"""declare -a g=([1]={a,b} x{1,2}); declare -p g
h() { local i=([2]={p,q}r); declare -p i; }; h
set -o nounset; j=([0]=s{1..3}); echo "${#j[@]} ${j[2]}"
set +o braceexpand; k=([1]={a,b}); declare -p k
"""),
]
CASES += [
    case("keys-see-earlier-elements", r"""a=([0]=1+2+3 [a[0]]=10 [a[6]]=hello); declare -p a
b=(5 [b[0]]=x [b[5]+1]=y); declare -p b
c=(old); c=([${#c[@]}]=n [c[1]]=m); declare -p c
i=0; d=([i++]=a [i++]=b [i]=c); declare -p d; echo "$i"
"""),
]
