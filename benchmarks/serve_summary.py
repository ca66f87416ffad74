# Summarises benchmarks/serve.sh's raw wrk output: per database, target and
# server, the median over the rounds (and the range) of tasks/s
# (requests/s x tasks a request), requests/s, and the p50 and p99
# latencies; then jsonpipe's ratio to the baseline; then, when serve.sh ran
# the floors (servers fixed and raw, the step loop), jsonpipe's and the
# baseline's ratios to each floor, the best ratio to the baseline any server
# could reach given the floor (the floor's tasks/s over the baseline's), and
# the step loop's medians over the rounds. The raw file's header (commit,
# date, CPU model, cores, the note that wrk shares them) heads it.
#
#   python3 benchmarks/serve_summary.py benchmarks/serve-wrk.txt > benchmarks/serve.txt
import re, statistics, sys

UNITS = {'us': 1e-3, 'ms': 1.0, 's': 1e3, 'm': 60e3, 'h': 3600e3}


def ms(text):
    m = re.fullmatch(r'([0-9.]+)(us|ms|s|m|h)', text)
    if not m:
        raise ValueError('latency %r' % text)
    return float(m.group(1)) * UNITS[m.group(2)]


def parse(path):
    header, runs, run, steps = [], [], None, []
    for line in open(path):
        if line.startswith('stepfloor: '):
            steps.append(dict(kv.split('=', 1) for kv in line[len('stepfloor: '):].split()))
            continue
        if line.startswith('### '):
            run = dict(kv.split('=', 1) for kv in line[4:].split())
            run.update(rps=None, p50=None, p99=None, errors=0)
            runs.append(run)
            continue
        if run is None:
            header.append(line.rstrip('\n'))
            continue
        s = line.strip()
        m = re.match(r'Requests/sec:\s+([0-9.]+)', s)
        if m:
            run['rps'] = float(m.group(1))
        m = re.match(r'(50|99)(?:\.0+)?%\s+(\S+)$', s)
        if m:
            run['p' + m.group(1)] = ms(m.group(2))
        m = re.match(r'Non-2xx or 3xx responses:\s+([0-9]+)', s)
        if m:
            run['errors'] += int(m.group(1))
        m = re.match(r'Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)', s)
        if m:
            run['errors'] += sum(int(g) for g in m.groups())
    return header, runs, steps


FLOORS = ('fixed', 'raw')


def main():
    header, runs, steps = parse(sys.argv[1])
    for h in header:
        print(h)
    bad = [r for r in runs if r['rps'] is None or r['p50'] is None or r['p99'] is None]
    if bad:
        sys.exit('serve_summary: %d wrk runs without figures (first: %r)' % (len(bad), bad[0]))
    groups = {}
    for r in runs:
        groups.setdefault((r['db'], r['target'], r['server']), []).append(r)

    print()
    print('Medians over the rounds, [min, max] for tasks/s; latencies in ms.')
    print()
    print('| database | target | server | rounds | tasks/s | [min, max] | requests/s | p50 ms | p99 ms | errors |')
    print('|---|---|---|---:|---:|---|---:|---:|---:|---:|')
    # Each database and target in the order run, the servers side by side.
    first = {}
    for r in runs:
        first.setdefault(r['db'], len(first))
        first.setdefault(r['target'], len(first))
    med = {}
    for key, rs in sorted(groups.items(), key=lambda kv: (first[kv[0][0]], first[kv[0][1]], kv[0][2])):
        db, target, server = key
        n = int(rs[0]['tasks-per-request'])
        tps = [r['rps'] * n for r in rs]
        med[key] = statistics.median(tps)
        print('| %s | %s | %s | %d | %.0f | [%.0f, %.0f] | %.0f | %.3f | %.3f | %d |' % (
            db, '`%s`' % rs[0]['path'], server, len(rs), med[key], min(tps), max(tps),
            statistics.median(r['rps'] for r in rs),
            statistics.median(r['p50'] for r in rs),
            statistics.median(r['p99'] for r in rs),
            sum(r['errors'] for r in rs)))

    ratios = [(db, t, med[(db, t, 'jsonpipe')] / med[(db, t, 'baseline')])
              for (db, t, s) in med if s == 'jsonpipe' and (db, t, 'baseline') in med]
    if ratios:
        print()
        print('jsonpipe serve / baseline, median tasks/s:')
        print()
        for db, t, x in ratios:
            print('ratio: %s %s %.2fx' % (db, t, x))
    floors(med, first, steps)
    errors = sum(r['errors'] for r in runs)
    if errors:
        print()
        print('WARNING: %d non-2xx responses or socket errors: those figures are not of served tasks' % errors)


def floors(med, first, steps):
    """The floors' lines: each server's ratio to the fixed and raw
    servers (tasks/s, the same rounds), the most any server could reach
    over the baseline given each floor, and the step loop."""
    keys = sorted({(db, t) for (db, t, s) in med if s in FLOORS}, key=lambda k: (first[k[0]], first[k[1]]))
    if keys:
        print()
        print('Floors (the same rounds): fixed = a net/http handler writing the bytes jsonpipe serve '
              'returned for the target; raw = a TCP loop writing them as one precomputed response. '
              'floor: each server\'s median tasks/s over the floor\'s; reach: the floor\'s over the '
              'baseline\'s, the best ratio to the baseline any server could reach.')
        print()
    for db, t in keys:
        parts = []
        for f in FLOORS:
            if (db, t, f) not in med:
                continue
            for s in ('jsonpipe', 'baseline'):
                if (db, t, s) in med:
                    parts.append('%s/%s %.2fx' % (s, f, med[(db, t, s)] / med[(db, t, f)]))
        print('floor: %s %s %s' % (db, t, ' '.join(parts)))
    for db, t in keys:
        if (db, t, 'baseline') not in med:
            continue
        parts = ['%s/baseline %.2fx' % (f, med[(db, t, f)] / med[(db, t, 'baseline')])
                 for f in FLOORS if (db, t, f) in med]
        print('reach: %s %s %s' % (db, t, ' '.join(parts)))
    groups = {}
    for st in steps:
        groups.setdefault((st['db'], st['target'], st['sql']), []).append(st)
    if groups:
        print()
        print('Step-loop floor (benchmarks/serve/stepfloor.c: the target\'s SQL as jsonpipe serve and as the '
              'baseline write it, every row stepped and every column read, on one core; medians over the '
              'rounds): tasks/s is rows a second on that core, against the servers\' tasks/s on the two '
              'cores wrk shares.')
        print()
    for (db, t, q), sts in sorted(groups.items(), key=lambda kv: (kv[0][0], int(kv[0][1][5:]) if kv[0][1][5:].isdigit() else 0, kv[0][2])):
        ns_row = statistics.median(float(x['ns-per-row']) for x in sts)
        ns_req = statistics.median(float(x['ns-per-request']) for x in sts)
        line = 'stepfloor: %s %s sql=%s ns-per-row=%.1f ns-per-request=%.0f tasks/s=%.0f' % (
            db, t, q, ns_row, ns_req, 1e9 / ns_row)
        if 'sqlite' in sts[0]:
            line += ' sqlite=%s' % sts[0]['sqlite']
        for s in ('jsonpipe', 'baseline'):
            if (db, t, s) in med:
                line += ' %s/stepfloor %.2fx' % (s, med[(db, t, s)] * ns_row / 1e9)
        print(line)


if __name__ == '__main__':
    main()
