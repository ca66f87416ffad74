# Prints the target ratios of BENCHMARKS.md from the raw outputs in
# benchmarks/ (run from the repo root): each ratio as a geomean over the
# classic corpus, over the wide one, and over named groups of wide files.
import subprocess, csv, math, os, re

CLASSIC = ['canada', 'citm_catalog', 'code', 'example', 'sample', 'twitter']
DOCS = ['licenses', 'cssprops', 'webhookspec']            # document-shaped wide files
ROWS = ['flights', 'movies', 'airports', 'earthquakes']   # the wide files with typed rows

def table(path, names):
    cmd = "sed -E %s %s | go tool benchstat -col /impl -filter '.unit:B/s' -format csv /dev/stdin" % (names, path)
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout
    rows = list(csv.reader(out.splitlines()))
    hdrs = [r for r in rows if len(r) > 1 and r[1] in ('jsonpipe', 'B/s')]
    if not hdrs:
        return {}
    hdr = hdrs[0]
    idx = {hdr[i]: i for i in range(1, len(hdr)) if hdr[i]}
    data = {}
    for r in rows:
        if r and r[0].startswith(('Unm', 'Dec', 'Valid')):
            data[r[0]] = {k: (float(r[i]) if i < len(r) and r[i] else None) for k, i in idx.items()}
    return data

decode_names = "'s#^Benchmark(\\w+)/([^/]+)/([^/]+)/(\\w+)-([0-9]+)#Benchmark\\1/file=\\3/kind=\\4/impl=\\2-\\5#'"
token_names = "'s#^Benchmark(\\w+)/([^/]+)/([^/]+)-([0-9]+)#Benchmark\\1/file=\\3/impl=\\2-\\4#'"
up = table('benchmarks/unmarshal-peers.txt', decode_names)
# jsonpipe_fresh (each call with the pooled state's caches emptied) runs in
# the root module's benchmarks, in the same interleaved rounds.
v1 = table('benchmarks/unmarshal-v1.txt', decode_names)
for k in up:
    if v1.get(k, {}).get('jsonpipe_fresh'):
        up[k]['jsonpipe_fresh'] = v1[k]['jsonpipe_fresh']

def fileof(k): return re.sub(r'-[0-9]+$', '', k.split('file=')[1].split('/')[0])
def gm(xs): return math.exp(sum(map(math.log, xs)) / len(xs))

def rep(title, data, keys, f):
    groups = [('classic', lambda n: n in CLASSIC), ('wide', lambda n: n not in CLASSIC),
              ('wide docs', lambda n: n in DOCS)]
    print(title)
    for gname, inside in groups:
        ks = [k for k in keys if inside(fileof(k))]
        rs = []
        for k in ks:
            try:
                rs.append((fileof(k), f(data[k])))
            except (TypeError, KeyError):
                pass
        if rs:
            print("  %-10s geomean %.2f×  (%s)" % (gname, gm([r for _, r in rs]), ", ".join("%s %.2f×" % x for x in rs)))

typedD = [k for k in up if k.startswith('DecoderDecode') and 'typed' in k]
typedU = [k for k in up if k.startswith('Unmarshal') and 'typed' in k]
anyU = [k for k in up if k.startswith('Unmarshal') and 'kind=any' in k]
anyD = [k for k in up if k.startswith('DecoderDecode') and 'kind=any' in k]
peers = ['encoding_json', 'goccy', 'sonic', 'sonic_std', 'jsoniter', 'segmentio', 'jsonv2']
SG = lambda r: max(r['sonic'], r['goccy'])
best = lambda r: max(r[p] for p in peers if r.get(p))
if up:
    rep("typed Decode vs the faster of sonic and goccy", up, typedD, lambda r: r['jsonpipe'] / SG(r))
    rep("typed Decode vs encoding/json", up, typedD, lambda r: r['jsonpipe'] / r['encoding_json'])
    rep("typed Unmarshal vs the faster of sonic and goccy", up, typedU, lambda r: r['jsonpipe'] / SG(r))
    rep("typed Unmarshal vs goccy", up, typedU, lambda r: r['jsonpipe'] / r['goccy'])
    rep("typed Unmarshal vs jsonv2", up, typedU, lambda r: r['jsonpipe'] / r['jsonv2'])
    rep("any Unmarshal vs the faster of sonic and goccy", up, anyU, lambda r: r['jsonpipe'] / SG(r))
    rep("any Decode vs the faster of sonic and goccy", up, anyD, lambda r: r['jsonpipe'] / SG(r))
    rep("any Unmarshal vs the best peer", up, anyU, lambda r: r['jsonpipe'] / best(r))
    rep("any Decode vs the best peer", up, anyD, lambda r: r['jsonpipe'] / best(r))
    rep("any Unmarshal vs encoding/json", up, anyU, lambda r: r['jsonpipe'] / r['encoding_json'])
    if any(up[k].get('jsonpipe_fresh') for k in anyU):
        print("jsonpipe_fresh: every call with the pooled state's caches emptied first")
        F = lambda r: r['jsonpipe_fresh']
        rep("  typed Unmarshal vs the faster of sonic and goccy", up, typedU, lambda r: F(r) / SG(r))
        rep("  typed Decode vs the faster of sonic and goccy", up, typedD, lambda r: F(r) / SG(r))
        rep("  any Unmarshal vs the faster of sonic and goccy", up, anyU, lambda r: F(r) / SG(r))
        rep("  any Decode vs the faster of sonic and goccy", up, anyD, lambda r: F(r) / SG(r))
        rep("  any Unmarshal: jsonpipe_fresh / jsonpipe", up, anyU, lambda r: F(r) / r['jsonpipe'])
if os.path.exists('benchmarks/tokens-peers.txt'):
    tp = table('benchmarks/tokens-peers.txt', token_names)
    valid = [k for k in tp if k.startswith('Valid')]
    if valid:
        rep("Valid vs goccy", tp, valid, lambda r: r['jsonpipe'] / r['goccy'])
        rep("Valid vs segmentio", tp, valid, lambda r: r['jsonpipe'] / r['segmentio'])
