# Prints the target ratios of BENCHMARKS.md from the raw outputs in
# benchmarks/ (run from the repo root): each ratio as a geomean over the
# classic corpus, over the wide one, and over named groups of wide files.
#
#   python3 benchmarks/ratios.py [unmarshal] [marshal]   (default: both)
#
# RATIOS_DIR reads the raw outputs from another directory (default benchmarks).
import subprocess, csv, math, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import DECODE_NAMES, TOKEN_NAMES, MARSHAL_NAMES, rename, impl_order  # one set of name rules for both scripts

DIR = os.environ.get('RATIOS_DIR', 'benchmarks')
FAMILIES = sys.argv[1:] or ['unmarshal', 'marshal']

CLASSIC = ['canada', 'citm_catalog', 'code', 'example', 'sample', 'twitter']
DOCS = ['licenses', 'cssprops', 'webhookspec']            # document-shaped wide files
ROWS = ['flights', 'movies', 'airports', 'earthquakes']   # the wide files with typed rows

def num(x):
    try:
        return float(x)
    except ValueError:
        return None  # empty, or not a number ('∞' from a single round)

def table(path, rules, unit='B/s'):
    if not os.path.exists(path):
        return {}
    text = impl_order(rename(open(path).read(), rules))
    out = subprocess.run(['go', 'tool', 'benchstat', '-col', '/impl', '-filter', '.unit:' + unit, '-format', 'csv', '/dev/stdin'],
                         input=text, capture_output=True, text=True).stdout
    rows = list(csv.reader(out.splitlines()))
    hdrs = [r for r in rows if len(r) > 1 and r[1] in ('jsonpipe', 'B/s', 'sec/op')]
    if not hdrs:
        return {}
    hdr = hdrs[0]
    if hdr[1] != 'jsonpipe':
        # jsonpipe is not the base column (see impl_order): the ratios would
        # read other libraries' figures as jsonpipe's.
        sys.exit('ratios.py: %s: jsonpipe is not benchstat\'s first column' % path)
    idx = {hdr[i]: i for i in range(1, len(hdr)) if hdr[i]}
    data = {}
    for r in rows:
        if r and r[0].startswith(('Unm', 'Dec', 'Valid', 'Marshal', 'EncoderEncode', 'Compact', 'Indent')):
            data[r[0]] = {k: num(r[i]) if i < len(r) else None for k, i in idx.items()}
    return data

up = table(DIR + '/unmarshal-peers.txt', DECODE_NAMES) if 'unmarshal' in FAMILIES else {}
# jsonpipe_fresh (each call with the pooled state's caches emptied) runs in
# the root module's benchmarks, in the same interleaved rounds.
v1 = table(DIR + '/unmarshal-v1.txt', DECODE_NAMES) if up else {}
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
    rep("typed Unmarshal vs encoding/json", up, typedU, lambda r: r['jsonpipe'] / r['encoding_json'])
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
if 'unmarshal' in FAMILIES and os.path.exists(DIR + '/tokens-peers.txt'):
    tp = table(DIR + '/tokens-peers.txt', TOKEN_NAMES)
    valid = [k for k in tp if k.startswith('Valid')]
    if valid:
        rep("Valid vs goccy", tp, valid, lambda r: r['jsonpipe'] / r['goccy'])
        rep("Valid vs segmentio", tp, valid, lambda r: r['jsonpipe'] / r['segmentio'])

# The encoding side (issue 18's targets), from compare/marshal: the peers on
# Go 1.27 (marshal-peers.txt), jsonpipe against the classic encoding/json on
# Go 1.26 (marshal-v1.txt), and which peers write encoding/json's bytes
# (marshal-agree.txt, TestMarshalPeersAgree -v: "agree <API> <impl> <file>/<kind>").
def agreeing(path):
    same = {}
    if os.path.exists(path):
        for line in open(path):
            m = re.search(r'\bagree (\w+) (\w+) (\w+)/(\w+)', line)
            if m:
                api, impl, f, kind = m.groups()
                same.setdefault((api, f, kind), set()).add(impl)
    return same

if 'marshal' in FAMILIES and os.path.exists(DIR + '/marshal-peers.txt'):
    mp = table(DIR + '/marshal-peers.txt', MARSHAL_NAMES)
    mv = table(DIR + '/marshal-v1.txt', MARSHAL_NAMES)
    same = agreeing(DIR + '/marshal-agree.txt')
    def kindof(k): return re.sub(r'-[0-9]+$', '', k.split('kind=')[1].split('/')[0]) if 'kind=' in k else None
    def apiof(k): return k.split('/')[0]
    def keys(data, api, kind=None):
        return [k for k in data if apiof(k) == api and (kind is None or kindof(k) == kind)]
    SGm = lambda r: max(r['goccy'], r['sonic_std'])
    def best_same(k):
        # the best peer that writes encoding/json's bytes for this API, file and kind
        ok = same.get((apiof(k), fileof(k), kindof(k)), set())
        return lambda r: max(r[p] for p in ok if p != 'jsonpipe' and r.get(p))
    print("Marshal (compare/marshal; peers on Go 1.27, encoding/json the classic one on Go 1.26)")
    for kind in ('typed', 'any'):
        ks = keys(mp, 'Marshal', kind)
        rep("%s Marshal vs the faster of goccy and sonic ConfigStd" % kind, mp, ks, lambda r: r['jsonpipe'] / SGm(r))
        rep("%s Marshal vs encoding/json (classic, Go 1.26)" % kind, mv, keys(mv, 'Marshal', kind), lambda r: r['jsonpipe'] / r['encoding_json'])
        rep("%s Marshal vs encoding/json (v2-backed, Go 1.27)" % kind, mp, ks, lambda r: r['jsonpipe'] / r['encoding_json'])
        if same:
            print("%s Marshal vs the best peer that writes encoding/json's bytes" % kind)
            for gname, inside in (('classic', lambda n: n in CLASSIC), ('wide', lambda n: n not in CLASSIC)):
                rs = []
                for k in ks:
                    if inside(fileof(k)):
                        try:
                            rs.append((fileof(k), mp[k]['jsonpipe'] / best_same(k)(mp[k])))
                        except (TypeError, KeyError, ValueError):
                            pass  # no peer agrees on this file
                if rs:
                    print("  %-10s geomean %.2f×  (%s)" % (gname, gm([r for _, r in rs]), ", ".join("%s %.2f×" % x for x in rs)))
    # What Marshal pays after encoding, whoever wrote it (the floor row: the
    # result's allocation, its copy, and the collector's work for those
    # bytes), taken off every implementation's time: the encoding's own
    # ratio. And Encoder.Encode, which allocates no result.
    mt = table(DIR + '/marshal-peers.txt', MARSHAL_NAMES, 'sec/op')
    mtv = table(DIR + '/marshal-v1.txt', MARSHAL_NAMES, 'sec/op')
    for kind in ('typed', 'any'):
        ks = [k for k in keys(mt, 'Marshal', kind) if mt[k].get('floor')]
        if ks:
            rep("%s Marshal: the floor's share of the faster of goccy and sonic ConfigStd's time" % kind, mt, ks,
                lambda r: r['floor'] / min(r['goccy'], r['sonic_std']))
            rep("%s Marshal less the floor vs the faster of goccy and sonic ConfigStd" % kind, mt, ks,
                lambda r: (min(r['goccy'], r['sonic_std']) - r['floor']) / (r['jsonpipe'] - r['floor']))
        ks = [k for k in keys(mtv, 'Marshal', kind) if mtv[k].get('floor')]
        if ks:
            rep("%s Marshal less the floor vs encoding/json (classic, Go 1.26)" % kind, mtv, ks,
                lambda r: (r['encoding_json'] - r['floor']) / (r['jsonpipe'] - r['floor']))
        rep("%s EncoderEncode vs the faster of goccy and sonic ConfigStd" % kind, mp, keys(mp, 'EncoderEncode', kind), lambda r: r['jsonpipe'] / SGm(r))
    for api in ('MarshalIndent', 'EncoderEncode'):
        for kind in ('typed', 'any'):
            rep("%s %s vs encoding/json (classic, Go 1.26)" % (kind, api), mv, keys(mv, api, kind), lambda r: r['jsonpipe'] / r['encoding_json'])
    for api in ('Compact', 'Indent', 'Valid'):
        rep("%s vs goccy" % api, mp, keys(mp, api), lambda r: r['jsonpipe'] / r['goccy'])
        rep("%s vs encoding/json (classic, Go 1.26)" % api, mv, keys(mv, api), lambda r: r['jsonpipe'] / r['encoding_json'])
    # Cold start: time per op, so encoding/json's over jsonpipe's (above 1: jsonpipe faster).
    for title, path in (("classic encoding/json, Go 1.26", DIR + '/marshal-v1.txt'), ("v2-backed encoding/json, Go 1.27", DIR + '/marshal-peers.txt')):
        cs = table(path, MARSHAL_NAMES, 'sec/op')
        for k, r in cs.items():
            if k.startswith('MarshalColdStart') and r.get('jsonpipe') and r.get('encoding_json'):
                print("MarshalColdStart, encoding/json time / jsonpipe time (%s): %.2f×" % (title, r['encoding_json'] / r['jsonpipe']))
