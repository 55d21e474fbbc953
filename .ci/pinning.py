#!/usr/bin/env python3
"""Issue 19's measure, not part of CI: names declared in a stage's learner files (files that differ from the previous
solution) and how many the stage's suite mentions. Usage: pinning.py [ROOT] [-v]"""
import os, re, sys, glob
root = next((a for a in sys.argv[1:] if not a.startswith('-')), '.')
verbose = '-v' in sys.argv
decl = re.compile(r'\b(?:func|var|let|case|struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)')
def strip(src):
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'"""(.*?)"""', '""', src, flags=re.S)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', src)
tot = [0, 0]
for n in range(2, 9):
    les = glob.glob(f'{root}/Lessons/{n:02d}-*')[0]
    prev = glob.glob(f'{root}/Solutions/{n-1:02d}-*')[0]
    tests = glob.glob(f'{root}/Tests/{n:02d}-*')[0]
    names = {}
    for f in sorted(glob.glob(les + '/*.swift')):
        p = os.path.join(prev, os.path.basename(f))
        if os.path.exists(p) and open(p).read() == open(f).read():
            continue
        for m in decl.finditer(strip(open(f).read())):
            nm = m.group(1)
            if nm in ('_', 'self'): continue
            names.setdefault(nm, os.path.basename(f))
    suite = ''.join(strip(open(f).read()) for f in glob.glob(tests + '/*.swift'))
    hit = sorted(n_ for n_ in names if re.search(r'\b' + re.escape(n_) + r'\b', suite))
    miss = sorted(set(names) - set(hit))
    tot[0] += len(hit); tot[1] += len(names)
    print(f'{n:02d}: {len(hit)}/{len(names)} mentioned')
    if verbose:
        print('   mentioned:', ', '.join(f'{h}({names[h]})' for h in hit))
        print('   not:', ', '.join(miss))
print(f'total: {tot[0]}/{tot[1]} ({100*tot[0]//max(tot[1],1)}%)')
