#!/usr/bin/env python3
"""Fails when the project's modules include each other in a cycle.

A module is a file name without its extension (daemon/service is
daemon/service.c and daemon/service.h); module A depends on module B when
A's .c or .h includes B's header with #include "...". A cycle means two
files that each need the other: the fix is to move what the lower one needs
into a file of its own (docs/architecture.md, "Layers and cycles").

Usage: check-include-cycles.py SOURCE_DIR
"""
import os
import re
import sys

DIRS = ["ops", "kernels", "scheduler", "daemon", "client", "proto", "include", "tools"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(root):
    files = set()
    for d in DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for n in names:
                if n.endswith((".c", ".h")):
                    files.add(os.path.relpath(os.path.join(dirpath, n), root))
    return files


def resolve(inc, cur, files):
    for cand in (inc, os.path.join(os.path.dirname(cur), inc), "proto/" + inc, "include/" + inc):
        cand = os.path.normpath(cand)
        if cand in files:
            return cand
    return None


def graph(root):
    files = modules(root)
    deps = {}
    for f in sorted(files):
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            text = fh.read()
        me = os.path.splitext(f)[0]
        for inc in INCLUDE.findall(text):
            target = resolve(inc, f, files)
            if target and os.path.splitext(target)[0] != me:
                deps.setdefault(me, set()).add(os.path.splitext(target)[0])
    return deps


def cycles(deps):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(deps.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    deps = graph(root)
    found = cycles(deps)
    for comp in found:
        print("include cycle among: " + ", ".join(comp))
        for a in comp:
            for b in sorted(deps.get(a, ())):
                if b in comp:
                    print("    %s -> %s" % (a, b))
    print("%d modules, %d include cycles" % (len(deps), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
