#!/usr/bin/env python3
"""What each part of the Worker's wasm costs: function bodies grouped by Rust module path.

Usage: run this on the build's named wasm (every build makes it, the shipped wasm's code with
its names):
    bash tests/scripts/build.sh
    python3 tests/scripts/wasm-sizes.py build/named/index_bg.wasm [--top 40] [--depth 3]

Reads the code section (body sizes) and the `name` section (function names, demangled when they
are Rust v0 or legacy symbols), then sums body bytes per module prefix. Data segments (string
constants, the ordering guide, schemas) are reported as one line. Sizes are raw bytes; gzip
shrinks code about 3x, text more.
"""
import re
import sys
from collections import defaultdict


def leb(data, pos):
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def sections(data):
    pos = 8
    while pos < len(data):
        kind = data[pos]
        size, pos = leb(data, pos + 1)
        yield kind, data[pos:pos + size]
        pos += size


def imported_functions(payload):
    count, pos = leb(payload, 0)
    functions = 0
    for _ in range(count):
        for _ in range(2):
            length, pos = leb(payload, pos)
            pos += length
        kind = payload[pos]
        pos += 1
        if kind == 0:
            _, pos = leb(payload, pos)
            functions += 1
        elif kind == 1:
            pos += 1
            flags, pos = leb(payload, pos)
            _, pos = leb(payload, pos)
            if flags & 1:
                _, pos = leb(payload, pos)
        elif kind == 2:
            flags, pos = leb(payload, pos)
            _, pos = leb(payload, pos)
            if flags & 1:
                _, pos = leb(payload, pos)
        elif kind == 3:
            pos += 2
        elif kind == 4:
            pos += 1
            _, pos = leb(payload, pos)
    return functions


def body_sizes(payload):
    count, pos = leb(payload, 0)
    sizes = []
    for _ in range(count):
        size, pos = leb(payload, pos)
        sizes.append(size)
        pos += size
    return sizes


def function_names(payload):
    names = {}
    pos = 0
    while pos < len(payload):
        kind = payload[pos]
        size, pos = leb(payload, pos + 1)
        end = pos + size
        if kind == 1:
            count, p = leb(payload, pos)
            for _ in range(count):
                index, p = leb(payload, p)
                length, p = leb(payload, p)
                names[index] = payload[p:p + length].decode('utf-8', 'replace')
                p += length
        pos = end
    return names


def module_of(name, depth):
    # Legacy mangling: _ZN4core3fmt5write17h...E -> core::fmt::write
    if name.startswith('_ZN'):
        parts, rest = [], name[3:]
        while rest and rest[0].isdigit():
            m = re.match(r'(\d+)', rest)
            n = int(m.group(1))
            rest = rest[len(m.group(1)):]
            parts.append(rest[:n])
            rest = rest[n:]
        name = '::'.join(p for p in parts if not re.fullmatch(r'h[0-9a-f]{16}', p))
    # v0 names carry each crate's disambiguator: logikflow[2e9619a9f3a52877]::store -> logikflow::store
    name = re.sub(r'\[[0-9a-f]+\]', '', name)
    name = re.sub(r'<[^<>]*>', '', name)
    name = name.lstrip('_<&')
    parts = [p for p in name.split('::') if p]
    return '::'.join(parts[:depth]) or '(unnamed)'


def main():
    args = sys.argv[1:]
    top = 40
    depth = 3
    if '--top' in args:
        top = int(args[args.index('--top') + 1])
    if '--depth' in args:
        depth = int(args[args.index('--depth') + 1])
    path = [a for a in args if a.endswith('.wasm')][0]
    data = open(path, 'rb').read()
    imports = 0
    sizes = []
    names = {}
    data_bytes = 0
    for kind, payload in sections(data):
        if kind == 2:
            imports = imported_functions(payload)
        elif kind == 10:
            sizes = body_sizes(payload)
        elif kind == 11:
            data_bytes = len(payload)
        elif kind == 0:
            length, p = leb(payload, 0)
            if payload[p:p + length] == b'name':
                names = function_names(payload[p + length:])
    totals = defaultdict(int)
    for i, size in enumerate(sizes):
        totals[module_of(names.get(imports + i, '(unnamed)'), depth)] += size
    print(f'{len(data)} bytes in all; code {sum(sizes)}; data segments {data_bytes}')
    for module, size in sorted(totals.items(), key=lambda kv: -kv[1])[:top]:
        print(f'{size:8d}  {module}')


if __name__ == '__main__':
    main()
