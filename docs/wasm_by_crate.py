"""Function body bytes of a wasm file by crate, from its `name` section.

Usage: python3 docs/wasm_by_crate.py FILE.wasm [ROWS]

FILE is the wasm cargo writes (target/wasm32-unknown-unknown/wasm-release/
predmarket-web.wasm), before wasm-bindgen and wasm-opt: it still has the
name section (wasm-opt drops it). A symbol counts for the first crate of
its mangled name; `<T as Trait>` impls show as "<crate" of the impl's
type. A rough map of where the bytes go, not a profile.
"""
import sys, re, collections
def leb(b,i):
    r=0;s=0
    while True:
        x=b[i];i+=1;r|=(x&0x7f)<<s;s+=7
        if x<0x80: return r,i
b=open(sys.argv[1],'rb').read()
i=8;secs={}
nimports=0
while i<len(b):
    sid=b[i];i+=1
    size,i=leb(b,i)
    start=i
    if sid==0:
        n,j=leb(b,i);name=b[j:j+n].decode();secs[name]=(j+n,start+size)
    else: secs[sid]=(start,start+size)
    i=start+size
# imports: count function imports
s,e=secs[2];i=s;cnt,i=leb(b,i)
for _ in range(cnt):
    n,i=leb(b,i);i+=n
    n,i=leb(b,i);i+=n
    kind=b[i];i+=1
    if kind==0: _,i=leb(b,i);nimports+=1
    elif kind==1: i+=1; fl,i=leb(b,i); _,i=leb(b,i); 
    elif kind==2:
        fl,i=leb(b,i);_,i=leb(b,i)
        if fl&1: _,i=leb(b,i)
    elif kind==3: i+=2
# code sizes
s,e=secs[10];i=s;cnt,i=leb(b,i);sizes=[]
for _ in range(cnt):
    sz,i=leb(b,i);sizes.append(sz);i+=sz
# names
s,e=secs['name'];i=s;names={}
while i<e:
    sub=b[i];i+=1;sz,i=leb(b,i);end=i+sz
    if sub==1:
        cnt,i=leb(b,i)
        for _ in range(cnt):
            idx,i=leb(b,i);n,i=leb(b,i);names[idx]=b[i:i+n].decode('utf8','replace');i+=n
    i=end
def demangle(n):
    # crude: take crate from legacy mangling _ZN<len><name>
    m=re.match(r'_ZN(\d+)(.*)',n)
    if m:
        l=int(m.group(1));return m.group(2)[:l]
    m=re.match(r'_R',n)
    return n.split('::')[0] if '::' in n else n[:30]
by=collections.Counter();top=[]
for k,sz in enumerate(sizes):
    n=names.get(k+nimports,'?')
    c=demangle(n)
    # generic impls: <T as Trait> -> look inside
    if c.startswith('_$LT$'):
        mm=re.match(r'_\$LT\$(.*)',c)
        c='<'+ (re.split(r'\.\.|\$',n[len('_ZN')+len(str(len(c)))+5:])[0])
    by[c]+=sz;top.append((sz,n))
tot=sum(sizes)
for c,sz in by.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 40):
    print(f"{sz:9d} {100*sz/tot:5.1f}% {c}")
print(tot)
