# Writes BENCHMARKS.md, and the speed table between the markers in
# README.md, from the raw outputs that benchmarks/run.sh wrote into
# benchmarks/. Nothing in either is written by hand: the text that does not
# change from run to run is benchmarks/report-head.md, and every figure
# comes from a raw output, whose header (commit, date, CPU, Go) is printed
# beside it. A test (TestBenchmarksReport) fails when the committed files
# differ from what this writes.
#
#   python3 benchmarks/report.py [--out DIR] [--raw DIR]   (from the repo root; run.sh -report calls it)
#
# --out writes BENCHMARKS.md and README.md into DIR instead of over the
# checkout's (the test compares those with the committed ones); --raw reads
# the raw outputs from DIR instead of benchmarks/.
import argparse, csv, math, os, re, subprocess, sys

DIR = 'benchmarks'  # the raw outputs (--raw)
SCRIPTS = 'benchmarks'  # ratios.py and report-head.md
HEAD = os.path.join(SCRIPTS, 'report-head.md')
BEGIN = '<!-- speed table: written by benchmarks/run.sh -report from the raw outputs; do not edit -->'
END = '<!-- end of the speed table -->'

# benchstat makes columns only of key=value name parts: Unmarshal/jsonpipe/twitter/typed
# becomes Unmarshal/file=twitter/kind=typed/impl=jsonpipe, Objects/floor Objects/impl=floor.
DECODE_NAMES = [(r'^Benchmark(\w+)/([^/]+)/([^/]+)/(\w+)-([0-9]+)', r'Benchmark\1/file=\3/kind=\4/impl=\2-\5'),
                (r'^Benchmark(Objects|ColdStart)/(\w+)-([0-9]+)', r'Benchmark\1/impl=\2-\3')]
TOKEN_NAMES = [(r'^Benchmark(\w+)/([^/]+)/([^/]+)-([0-9]+)', r'Benchmark\1/file=\3/impl=\2-\4')]
MARSHAL_NAMES = [(r'^Benchmark(Marshal|MarshalIndent|EncoderEncode)/(typed|any)/(\w+)/(\w+)-([0-9]+)', r'Benchmark\1/file=\4/kind=\2/impl=\3-\5'),
                 (r'^Benchmark(Compact|Indent|Valid)/(\w+)/(\w+)-([0-9]+)', r'Benchmark\1/file=\3/impl=\2-\4'),
                 (r'^BenchmarkMarshalColdStart/(\w+)-([0-9]+)', r'BenchmarkMarshalColdStart/impl=\1-\2')]


def raw(name):
    return os.path.join(DIR, name)


def header(name):
    """The key: value lines at the top of a raw output (commit, date, go,
    cpu...), up to its first benchmark line."""
    h = {}
    with open(encoding='utf-8', errors='replace', file=raw(name)) as f:
        for line in f:
            if line.startswith('Benchmark'):
                break
            m = re.match(r'^([a-z][a-z0-9-]*): (.*\S)\s*$', line)
            if m and m.group(1) not in h:
                h[m.group(1)] = m.group(2)
    return h


def provenance(names):
    """One line per raw output: where its figures come from."""
    out = []
    for n in names:
        h = header(n)
        parts = ['commit `%s`' % h.get('commit', 'not recorded'), h.get('date', 'date not recorded'),
                 h.get('cpu-model', h.get('cpu', 'CPU not recorded'))]
        if 'go' in h:
            parts.append(h['go'])
        if 'rounds' in h:
            parts.append('%s rounds' % h['rounds'])
        if 'benchtime' in h:
            parts.append('%s a benchmark' % h['benchtime'])
        if 'warmup' in h:
            parts.append('after %s untimed' % h['warmup'])
        if 'order' in h:
            parts.append('libraries %s' % h['order'])
        if 'recorded-by' in h:
            parts.append(h['recorded-by'])
        out.append('- `benchmarks/%s`: %s' % (n, ', '.join(parts)))
    return '\n'.join(out)


def rename(text, rules):
    """text with its benchmark names rewritten by rules (ratios.py uses it too)."""
    for pat, rep in rules:
        text = re.sub(pat, rep, text, flags=re.M)
    return text


def renamed(name, rules):
    return rename(open(encoding='utf-8', errors='replace', file=raw(name)).read(), rules)


# The libraries in the order of benchstat's columns: jsonpipe first, the
# base every "vs base" compares with, then the others as the compare module
# lists them; any other after these, as met.
IMPL_ORDER = ['jsonpipe', 'jsonpipe_fresh', 'encoding_json', 'jsonv2', 'goccy', 'sonic', 'sonic_std',
              'jsoniter', 'segmentio', 'floor']


def impl_order(text):
    """text with each run of benchmark lines sorted, stably, by the
    library in its name's impl= part (IMPL_ORDER). benchstat makes its
    columns in the order it first meets their values, and the compare
    module runs a benchmark's libraries in an order shuffled each round
    (internal/order): unsorted, the first library of a file's
    first benchmark would be the base. The samples are the same, so
    every median, interval and p-value is too."""
    def rank(line):
        m = re.search(r'/impl=(\w+?)(?:-[0-9]+)?(?:/|\s)', line)
        name = m.group(1) if m else ''
        return IMPL_ORDER.index(name) if name in IMPL_ORDER else len(IMPL_ORDER)
    out, run = [], []
    for line in text.splitlines(True):
        if line.startswith('Benchmark'):
            run.append(line)
            continue
        out += sorted(run, key=rank)
        run = []
        out.append(line)
    out += sorted(run, key=rank)
    return ''.join(out)


def benchstat(text, *args):
    text = impl_order(text)
    r = subprocess.run(['go', 'tool', 'benchstat', *args, '/dev/stdin'], input=text,
                       capture_output=True, text=True, check=True)
    return r.stdout.rstrip('\n')


def printable(s):
    """s with its control characters written as \\xNN: a peer's error
    message may quote a NUL, which would make the report a binary file."""
    return re.sub(r'[\x00-\x08\x0b-\x1f\x7f]', lambda m: '\\x%02x' % ord(m.group()), s)


def block(s):
    return '```\n%s\n```' % s


def ratios(family):
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, 'ratios.py'), family],
                       capture_output=True, text=True, check=True, env=dict(os.environ, RATIOS_DIR=DIR))
    return r.stdout.rstrip('\n')


def parse_ratios(text):
    """ratios.py's output as {title: {group: (geomean, [(file, ratio)])}}."""
    res, title = {}, None
    for line in text.splitlines():
        m = re.match(r'^\s+(classic|wide docs|wide)\s+geomean ([0-9.]+)×\s+\((.*)\)$', line)
        if m and title:
            files = [(f, float(x)) for f, x in re.findall(r'(\w+) ([0-9.]+)×', m.group(3))]
            res.setdefault(title, {})[m.group(1)] = (float(m.group(2)), files)
        else:
            title = line.rstrip()  # the fresh-cache titles keep their two-space indent
    return res


def cell(r, title):
    """'classic; wide' geomeans of a ratio, each with its worst file when
    that one is below 1."""
    if title not in r:
        return 'not measured'
    out = []
    for g in ('classic', 'wide'):
        if g not in r[title]:
            continue
        gm, files = r[title][g]
        worst = min(files, key=lambda x: x[1])
        s = '%.2f×' % gm
        if worst[1] < 1:
            s += ' (%s %.2f×)' % worst
        out.append(s)
    return '; '.join(out) if out else 'not measured'


def summary(r):
    rows = [
        ('`Unmarshal` into structs', 'typed Unmarshal vs the faster of sonic and goccy', 'typed Unmarshal vs encoding/json'),
        ('the same, caches emptied before every call', '  typed Unmarshal vs the faster of sonic and goccy', None),
        ('`Decoder.Decode` into structs', 'typed Decode vs the faster of sonic and goccy', 'typed Decode vs encoding/json'),
        ('`Unmarshal` into `any`', 'any Unmarshal vs the faster of sonic and goccy', 'any Unmarshal vs encoding/json'),
        ('the same, caches emptied before every call', '  any Unmarshal vs the faster of sonic and goccy', None),
        ('`Decode` into `any`', 'any Decode vs the faster of sonic and goccy', None),
        ('`Valid`', 'Valid vs goccy', None),
        ('`Marshal` of structs', 'typed Marshal vs the faster of goccy and sonic ConfigStd', 'typed Marshal vs encoding/json (classic, Go 1.26)'),
        ('`Marshal` of `any`', "any Marshal vs the best peer that writes encoding/json's bytes", 'any Marshal vs encoding/json (classic, Go 1.26)'),
    ]
    out = ['| | against the faster peer (classic; wide) | against encoding/json (classic; wide) |',
           '| --- | --- | --- |']
    for label, peer, std in rows:
        out.append('| %s | %s | %s |' % (label, cell(r, peer), cell(r, std) if std else ''))
    out.append(shapes_row())
    return '\n'.join(out)


def section(title, names, body):
    missing = [n for n in names if not os.path.exists(raw(n))]
    if missing:
        return '## %s\n\nNo raw output yet (%s): `benchmarks/run.sh` writes it.\n' % (
            title, ', '.join('`%s`' % m for m in missing))
    return '## %s\n\n%s\n\n%s\n' % (title, provenance(names), body())


def tokens():
    return '\n\n'.join([
        '### jsonpipe against encoding/json, and against the floor',
        block(benchstat(open(encoding='utf-8', errors='replace', file=raw('tokens-main.txt')).read(), '-filter', '.unit:B/s')),
        '### jsonpipe against the other tokenizers and validators',
        block(benchstat(renamed('tokens-peers.txt', TOKEN_NAMES), '-col', '/impl', '-filter', '.unit:B/s')),
    ])


def unmarshal():
    v1 = renamed('unmarshal-v1.txt', DECODE_NAMES)
    peers = renamed('unmarshal-peers.txt', DECODE_NAMES)
    return '\n\n'.join([
        '### The ratios (`python3 benchmarks/ratios.py unmarshal`; above 1: jsonpipe faster)',
        block(ratios('unmarshal')),
        '### jsonpipe against encoding/json (the root module, Go 1.26) and the floor',
        block(benchstat(v1, '-col', '/impl', '-filter', '.unit:B/s')),
        block(benchstat(v1, '-col', '/impl', '-filter', '.name:(Objects OR ColdStart)')),
        '### jsonpipe against the peers (compare/unmarshal)',
        block(benchstat(peers, '-col', '/impl', '-filter', '.unit:B/s')),
        '### Allocations per op, jsonpipe against encoding/json/v2',
        block(benchstat(peers, '-col', '/impl', '-filter', '.unit:allocs/op /impl:(jsonpipe OR jsonv2)')),
    ])


def marshal():
    agree = [printable(re.sub(r'^ +[a-z_]+\.go:[0-9]+: ', '', l.rstrip('\n'))[:160])
             for l in open(encoding='utf-8', errors='replace', file=raw('marshal-agree.txt')) if re.search(r'write encoding/json|differ', l)]
    v1 = renamed('marshal-v1.txt', MARSHAL_NAMES)
    peers = renamed('marshal-peers.txt', MARSHAL_NAMES)
    return '\n\n'.join([
        '### The ratios (`python3 benchmarks/ratios.py marshal`; above 1: jsonpipe faster)',
        block(ratios('marshal')),
        "### Which peers write encoding/json's bytes (TestMarshalPeersAgree)",
        block('\n'.join(agree) or 'no verdicts in marshal-agree.txt'),
        '### jsonpipe against the classic encoding/json (Go 1.26)',
        block(benchstat(v1, '-col', '/impl', '-filter', '.unit:B/s')),
        block(benchstat(v1, '-col', '/impl', '-filter', '.name:MarshalColdStart')),
        '### jsonpipe against the peers (Go 1.27)',
        block(benchstat(peers, '-col', '/impl', '-filter', '.unit:B/s')),
        block(benchstat(peers, '-col', '/impl', '-filter', '.name:MarshalColdStart')),
        '### Allocations per op',
        block(benchstat(peers, '-col', '/impl', '-filter', '.unit:allocs/op')),
    ])


def plain(name):
    return lambda: block(benchstat(open(encoding='utf-8', errors='replace', file=raw(name)).read()))


def wholeprogram():
    parts = []
    for n in ('sqlite-wholeprogram.txt', 'sqlite-wholeprogram-300k.txt'):
        lines = [l.rstrip('\n') for l in open(encoding='utf-8', errors='replace', file=raw(n)) if not re.match(r'^[a-z][a-z0-9-]*: ', l)]
        parts.append(block('\n'.join(lines).strip('\n')))
    return '\n\n'.join(parts)


def served():
    """benchmarks/serve_summary.py's output, as serve.sh wrote it, without
    its header lines (the provenance above): the table, jsonpipe's ratios
    to the baseline, and, when the run had them, the floors (the fixed
    and raw servers, the step loop) and the reach they allow."""
    # The key: value lines dropped are the header's; the ratios' and the
    # floors' stay.
    lines = [l.rstrip('\n') for l in open(encoding='utf-8', errors='replace', file=raw('serve.txt'))
             if not re.match(r'^[a-z][a-z0-9-]*: ', l) or re.match(r'^(ratio|floor|reach|stepfloor): ', l)]
    text = '\n'.join(lines).strip('\n')
    if 'floor: ' not in text:
        return block(text)
    return '\n\n'.join([
        'Issue 38 asks, against the baseline in the same run, 1.5× at 1 task a request, 3× at 128 and 5× at '
        '1,024. The floors say what this machine allows at all: `reach` is the ratio to the baseline of a '
        'server that does nothing but write jsonpipe serve\'s bytes (`fixed`: net/http; `raw`: a TCP loop), '
        'so a target above it cannot be met by any server here; `stepfloor` is SQLite alone stepping the '
        'page on one core.',
        block(text)])


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


# Peers whose Valid accepts what encoding/json rejects (escapes and control
# characters inside strings go unchecked), shown by compare/shapes
# TestValidRejects, which fails when this stops being true: their Valid does
# less work, so it is no target for op=valid.
VALID_LAX = ('sonic', 'sonic_std')


# The sweep's forms, each recorded in files of its own (run.sh shapes-FORM).
SHAPE_FORMS = ('doc', 'docs', 'ndjson', 'pretty')


def shape_files(kind):
    """The sweep's raw outputs of a kind (peers or v1) that are present,
    one per form."""
    return [n for n in ('shapes-%s-%s.txt' % (f, kind) for f in SHAPE_FORMS) if os.path.exists(raw(n))]


def shape_ratios(std=False):
    """jsonpipe's speed over the faster of goccy and sonic (for marshal and
    encode, sonic ConfigStd: sonic's default writes other bytes; for valid,
    goccy alone: see VALID_LAX) on every case of the sweep, as
    {(form, op): [(case, ratio)]}. With std, over the faster of goccy and
    sonic ConfigStd everywhere: sonic's default config decodes strings
    without checking their UTF-8 and without copying them (they share the
    input's memory), work that encoding/json, jsonpipe and ConfigStd do.
    Each form's file is read on its own: they may come from other runs.
    Each entry is (case, ratio, slower): slower when a peer's lead over
    jsonpipe is one benchstat calls significant (p < 0.05, its alpha),
    not '~': a ratio below 1 that is not slower may be the rounds'
    spread."""
    res = {}
    for name in shape_files('peers'):
        shape_ratios_of(name, std, res)
    return res


def shape_ratios_of(name, std, res):
    """shape_ratios of one raw output, added to res."""
    out = benchstat(open(encoding='utf-8', errors='replace', file=raw(name)).read(), '-col', '/impl', '-filter', '.unit:B/s', '-format', 'csv')
    rows = list(csv.reader(out.splitlines()))
    hdr = next((r for r in rows if len(r) > 1 and r[1] == 'jsonpipe'), None)
    if hdr is None:
        # jsonpipe is not the base column (see impl_order): every ratio
        # would be against another library. Stop rather than drop the file.
        sys.exit('report.py: %s: jsonpipe is not benchstat\'s first column' % name)
    idx = {hdr[i]: i for i in range(1, len(hdr)) if hdr[i]}
    for r in rows:
        m = re.match(r'^Shapes/case=([^/]+)/form=([^/]+)/op=([^/-]+(?:-[a-z]+)?)-[0-9]+$', r[0]) if r else None
        if not m:
            continue
        def val(impl):
            try:
                return float(r[idx[impl]]) if impl in idx and r[idx[impl]] else None
            except ValueError:
                return None

        def ahead(impl):
            """benchstat's verdict on impl against jsonpipe (the base) is
            a significant lead: "+x%" in B/s, where '~' is none."""
            i = idx[impl] + 2  # B/s, CI, then "vs base"
            return i < len(r) and r[i].startswith('+')
        case, form, op = m.groups()
        peers = ('goccy', 'sonic_std') if std or op in ('marshal', 'encode') else ('goccy', 'sonic')
        peers = tuple(p for p in peers if op != 'valid' or p not in VALID_LAX)
        pv = [v for v in map(val, peers) if v]
        if val('jsonpipe') and pv:
            slower = any(val(p) and ahead(p) for p in peers)
            res.setdefault((form, op), []).append((case, val('jsonpipe') / max(pv), slower))


def shapes():
    res, same = shape_ratios(), shape_ratios(std=True)
    lines = ['| form | op | geomean | worst case | cases below 1.0× | of those, a peer significantly faster | geomean, sonic ConfigStd | its worst case |',
             '| --- | --- | --- | --- | --- | --- | --- | --- |']
    for (form, op), rs in sorted(res.items()):
        gm = geomean([x for _, x, _ in rs])
        worst = min(rs, key=lambda x: x[1])
        ss = same.get((form, op), [])
        sworst = min(ss, key=lambda x: x[1]) if ss else ('', 0, False)
        lines.append('| %s | %s | %.2f× | %s %.2f× | %d of %d | %d | %s | %s |' % (
            form, op, gm, worst[0], worst[1], sum(1 for _, x, _ in rs if x < 1), len(rs),
            sum(1 for _, x, slower in rs if x < 1 and slower),
            '%.2f×' % geomean([x for _, x, _ in ss]) if ss else '', '%s %.2f×' % sworst[:2] if ss else ''))
    agree = [printable(re.sub(r'^ +[a-z_]+\.go:[0-9]+: ', '', l.rstrip('\n'))[:160])
             for l in open(encoding='utf-8', errors='replace', file=raw('shapes-agree.txt')) if re.search(r'differ|deviat|known|valid-lax', l)]
    tables = []
    for kind, title in (('peers', 'Every case, every library (Go 1.27)'),
                        ('v1', 'jsonpipe against the classic encoding/json (Go 1.26)')):
        for name in shape_files(kind):
            tables += ['### %s: form=%s' % (title, name.split('-')[1]),
                       block(benchstat(open(encoding='utf-8', errors='replace', file=raw(name)).read(), '-col', '/impl', '-filter', '.unit:B/s'))]
    return '\n\n'.join([
        '### jsonpipe over the faster of goccy and sonic, by form and op (B/s; above 1: jsonpipe faster)',
        'The last two columns compare with goccy and sonic `ConfigStd` instead: sonic\'s default decodes '
        'strings without checking their UTF-8 and without copying them (they share the input\'s memory); '
        'ConfigStd does that work, as encoding/json and jsonpipe do. For `valid`, goccy alone: sonic\'s Valid '
        'does not check strings (TestValidRejects). Each form is recorded on its own (see the files above, '
        'each with its commit, day and CPU); a file with no warmup line was timed from its first call, '
        'and its form=doc encodings are slower on every library than a program that encodes again and '
        'again, some more than others (see compare/shapes\' warmup); a file with no order line ran the '
        'libraries in one order, each after the same one, and in form=doc marshal the library after '
        'encoding_json ran in a heap that one had grown, and about twice as fast as elsewhere in the order (see '
        'internal/order). A case below 1.0× is counted again '
        'where benchstat calls a peer\'s lead over jsonpipe significant (p < 0.05 over the rounds, not its '
        '`~`): at 50ms a benchmark, a call of 5 to 25ms (decoding 1 MB into `any`) is timed two to ten '
        'times a round, and the others may be the rounds\' spread.',
        '\n'.join(lines),
        "### Where the peers differ from encoding/json (TestShapesAgree)",
        block('\n'.join(agree) or 'no deviation recorded'),
    ] + tables)


def shapes_row():
    """The README's row for the sweep: its geomean, its worst case, and the
    cases below 1.0×, with how many of them a peer leads by a margin
    benchstat calls significant (shape_ratios)."""
    if not shape_files('peers'):
        return '| the shape sweep (every case, form and op) | no recorded run yet | |'
    res = shape_ratios()
    every = [(form, op, case, x, slower) for (form, op), rs in res.items() for case, x, slower in rs]
    if not every:
        return '| the shape sweep (every case, form and op) | no figure in its raw outputs | |'
    gm = geomean([e[3] for e in every])
    w = min(every, key=lambda e: e[3])
    below = [e for e in every if e[3] < 1]
    return '| the shape sweep (every case, form and op) | %.2f×; worst %s, %s, %s %.2f×; %d of %s below 1.0×, %d of them significantly (p < 0.05) | |' % (
        gm, w[2], w[0], w[1], w[3], len(below), format(len(every), ','), sum(1 for e in below if e[4]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default='.')
    ap.add_argument('--raw', default='benchmarks', help='where the raw outputs are (default benchmarks)')
    args = ap.parse_args()
    global DIR
    DIR = args.raw

    r = {}
    if os.path.exists(raw('unmarshal-peers.txt')):
        r.update(parse_ratios(ratios('unmarshal')))
    if os.path.exists(raw('marshal-peers.txt')):
        r.update(parse_ratios(ratios('marshal')))
    table = summary(r)

    doc = [open(HEAD).read().rstrip('\n'), '',
           '## Summary', '',
           'Geomeans over each corpus of the ratios printed in full below (above 1: jsonpipe faster), '
           'each with its worst file where that one is below 1. The peers are goccy/go-json and '
           'bytedance/sonic (sonic `ConfigStd` for Marshal, whose default writes other bytes); '
           '"encoding/json" is the v2-backed one of Go 1.27 for decoding and the classic one of Go 1.26 '
           'for encoding.', '',
           table, '',
           section('The shape sweep', (shape_files('peers') + shape_files('v1') or ['shapes-doc-peers.txt']) + ['shapes-agree.txt'], shapes),
           section('Token layer', ['tokens-main.txt', 'tokens-peers.txt'], tokens),
           section('Unmarshal and Decoder.Decode', ['unmarshal-v1.txt', 'unmarshal-peers.txt'], unmarshal),
           section('Marshal and Encoder', ['marshal-v1.txt', 'marshal-peers.txt', 'marshal-agree.txt'], marshal),
           section('SQLite loading and export', ['sqlite.txt'], plain('sqlite.txt')),
           section('Whole programs: a million rows into SQLite', ['sqlite-wholeprogram.txt', 'sqlite-wholeprogram-300k.txt'], wholeprogram),
           section('PostgreSQL loading and export', ['postgres.txt'], plain('postgres.txt')),
           section('jsonpipe serve: tasks over HTTP (wrk on the same 2 cores)', ['serve.txt'], served),
           ]
    text = '\n'.join(doc).rstrip('\n') + '\n'
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'BENCHMARKS.md'), 'w') as f:
        f.write(text)

    readme = open('README.md').read()
    i, j = readme.find(BEGIN), readme.find(END)
    if i < 0 or j < i:
        sys.exit('report.py: README.md has no speed table markers')
    readme = readme[:i + len(BEGIN)] + '\n\n' + table + '\n\n' + readme[j:]
    with open(os.path.join(args.out, 'README.md'), 'w') as f:
        f.write(readme)


if __name__ == '__main__':
    main()
