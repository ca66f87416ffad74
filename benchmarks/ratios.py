# Prints the target ratios of BENCHMARKS.md from benchmarks/unmarshal-peers.txt (run from the repo root).
import subprocess,csv,math
def table(cmd):
    out=subprocess.run(cmd,shell=True,capture_output=True,text=True,cwd='.').stdout
    rows=list(csv.reader(out.splitlines()))
    hdr=[r for r in rows if len(r)>1 and r[1] in ('jsonpipe','B/s')][0]
    idx={hdr[i]:i for i in range(1,len(hdr)) if hdr[i]}
    data={}
    for r in rows:
        if r and r[0].startswith(('Unm','Dec','Obj','Cold','Valid','Scan','Count')):
            data[r[0]]={k:(float(r[i]) if i<len(r) and r[i] else None) for k,i in idx.items()}
    return data
up=table("sed -E 's#^Benchmark(\\w+)/([^/]+)/([^/]+)/(\\w+)-([0-9]+)#Benchmark\\1/file=\\3/kind=\\4/impl=\\2-\\5#' benchmarks/unmarshal-peers.txt | go tool benchstat -col /impl -filter '.unit:B/s' -format csv /dev/stdin")
# jsonpipe_fresh (each call with the pooled state's caches emptied) runs in
# the root module's benchmarks, in the same interleaved rounds.
v1=table("sed -E 's#^Benchmark(\\w+)/([^/]+)/([^/]+)/(\\w+)-([0-9]+)#Benchmark\\1/file=\\3/kind=\\4/impl=\\2-\\5#' benchmarks/unmarshal-v1.txt | go tool benchstat -col /impl -filter '.unit:B/s' -format csv /dev/stdin")
fresh=all(v1.get(k,{}).get('jsonpipe_fresh') for k in up if k.startswith(('Unm','Dec')))
if fresh:
    for k in up:
        if k.startswith(('Unm','Dec')):
            up[k]['jsonpipe_fresh']=v1[k]['jsonpipe_fresh']
def gm(xs): return math.exp(sum(map(math.log,xs))/len(xs))
def rep(title, keys, f):
    rs=[]
    parts=[]
    for k in keys:
        r=f(up[k]); rs.append(r); parts.append("%s %.2f×"%(k.split('file=')[1].split('/')[0], r))
    print("%-55s geomean %.2f×  (%s)"%(title, gm(rs), ", ".join(parts)))
typedD=[k for k in up if k.startswith('DecoderDecode') and 'typed' in k]
typedU=[k for k in up if k.startswith('Unmarshal') and 'typed' in k]
anyU=[k for k in up if k.startswith('Unmarshal') and 'any' in k]
anyD=[k for k in up if k.startswith('DecoderDecode') and 'any' in k]
peers=['encoding_json','goccy','sonic','sonic_std','jsoniter','segmentio','jsonv2']
rep("typed Decode vs encoding/json", typedD, lambda r: r['jsonpipe']/r['encoding_json'])
rep("typed Decode vs best of sonic, goccy", typedD, lambda r: r['jsonpipe']/max(r['sonic'],r['goccy']))
rep("typed Decode vs best of sonic_std, goccy", typedD, lambda r: r['jsonpipe']/max(r['sonic_std'],r['goccy']))
rep("typed Unmarshal vs goccy", typedU, lambda r: r['jsonpipe']/r['goccy'])
rep("typed Unmarshal vs jsonv2", typedU, lambda r: r['jsonpipe']/r['jsonv2'])
rep("typed Unmarshal vs encoding/json", typedU, lambda r: r['jsonpipe']/r['encoding_json'])
rep("any Unmarshal vs best peer", anyU, lambda r: r['jsonpipe']/max(r[p] for p in peers))
rep("any Unmarshal vs best peer but sonic default", anyU, lambda r: r['jsonpipe']/max(r[p] for p in peers if p!='sonic'))
rep("any Decode vs best peer", anyD, lambda r: r['jsonpipe']/max(r[p] for p in peers))
rep("any Decode vs best peer but sonic default", anyD, lambda r: r['jsonpipe']/max(r[p] for p in peers if p!='sonic'))
rep("any Unmarshal vs encoding/json", anyU, lambda r: r['jsonpipe']/r['encoding_json'])
# The floor (floor/<file>/any: the same tree built in code, fresh maps and
# slices, shared leaves) is in the Unmarshal rows only; Decode uses the same.
def floor(k): return up[k.replace('DecoderDecode/', 'Unmarshal/')]['floor']
best=lambda r: max(r[p] for p in peers)
rep("any Unmarshal: jsonpipe speed / floor speed", anyU, lambda r: r['jsonpipe']/r['floor'])
rep("any Unmarshal: best peer speed / floor speed", anyU, lambda r: best(r)/r['floor'])
rep("any Unmarshal target (1.2x best peer) / floor speed", anyU, lambda r: 1.2*best(r)/r['floor'])
rep("any Decode: jsonpipe speed / floor speed", anyD, lambda r: r['jsonpipe']/floor([k for k in anyD if up[k] is r][0]))
rep("any Decode target (1.2x best peer) / floor speed", anyD, lambda r: 1.2*best(r)/floor([k for k in anyD if up[k] is r][0]))
if fresh:
    print("jsonpipe_fresh: every call with the pooled state's caches emptied first")
    F=lambda r: r['jsonpipe_fresh']
    rep("  typed Decode vs best of sonic, goccy", typedD, lambda r: F(r)/max(r['sonic'],r['goccy']))
    rep("  typed Unmarshal vs goccy", typedU, lambda r: F(r)/r['goccy'])
    rep("  typed Unmarshal vs jsonv2", typedU, lambda r: F(r)/r['jsonv2'])
    rep("  any Unmarshal vs best peer", anyU, lambda r: F(r)/max(r[p] for p in peers))
    rep("  any Decode vs best peer", anyD, lambda r: F(r)/max(r[p] for p in peers))
    rep("  any Unmarshal: jsonpipe_fresh / jsonpipe", anyU, lambda r: F(r)/r['jsonpipe'])
