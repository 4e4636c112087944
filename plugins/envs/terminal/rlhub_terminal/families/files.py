"""File-system families: the candidate's function works inside a given root directory."""

from __future__ import annotations

from ..family import NAMES, WORDS, family, fs_spec


def _tree(rng, exts, n, depth=True):
    tree = {}
    for _ in range(n):
        folder = rng.choice(["", "", "docs/", "src/", "src/lib/"]) if depth else ""
        tree[f"{folder}{rng.choice(WORDS)}{rng.randint(1, 9)}.{rng.choice(exts)}"] = f"{rng.choice(NAMES)} {rng.randint(0, 9)}\n"
    return tree


@family("files", "fs-organize-by-extension")
def organize_by_extension(rng):
    """Move top-level files into folders named after their lower-cased extension."""
    cases = []
    for _ in range(3):
        tree = _tree(rng, ["txt", "TXT", "csv", "py", "md"], rng.randint(3, 7), depth=False)
        tree[f"{rng.choice(WORDS)}"] = "no extension\n"
        tree["keep/inner.txt"] = "nested stays\n"
        cases.append((tree, ()))
    ref = '''
import os
import shutil

def organize(root):
    moved = 0
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        ext = os.path.splitext(name)[1][1:].lower() or "other"
        os.makedirs(os.path.join(root, ext), exist_ok=True)
        shutil.move(path, os.path.join(root, ext, name))
        moved += 1
    return moved
'''
    wrong = ['''
import os
import shutil

def organize(root):
    moved = 0
    for dirpath, _, files in list(os.walk(root)):
        for name in files:
            ext = os.path.splitext(name)[1][1:] or "other"
            os.makedirs(os.path.join(root, ext), exist_ok=True)
            shutil.move(os.path.join(dirpath, name), os.path.join(root, ext, name))
            moved += 1
    return moved
''']
    return fs_spec("Write `organize(root)` that moves each regular file directly inside directory `root` into the "
                   "sub-directory named after its extension, lower-cased and without the dot ('Notes.TXT' -> txt/); files "
                   "without an extension go to other/. Files in sub-directories are left alone. Return the number of "
                   "files moved.", "organize", ref, wrong, cases)


@family("files", "fs-find-duplicates")
def find_duplicates(rng):
    """Groups of files with identical content."""
    cases = []
    for _ in range(3):
        tree = _tree(rng, ["txt", "dat"], rng.randint(4, 8))
        a, b = sorted(tree)[:2]
        tree[a] = tree[b]
        tree["same_size_1.txt"], tree["same_size_2.txt"] = "abc\n", "xyz\n"
        cases.append((tree, ()))
    ref = '''
import hashlib
import os

def duplicates(root):
    groups = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
            groups.setdefault(digest, []).append(os.path.relpath(path, root))
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)
'''
    wrong = ['''
import os

def duplicates(root):
    groups = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            groups.setdefault(os.path.getsize(path), []).append(os.path.relpath(path, root))
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)
''']
    return fs_spec("Write `duplicates(root)` returning the groups of files under `root` (recursively) whose contents are "
                   "byte-for-byte identical: each group a sorted list of paths relative to root, only groups of 2 or more, "
                   "the list of groups sorted.", "duplicates", ref, wrong, cases)


@family("files", "fs-dir-sizes")
def dir_sizes(rng):
    """Total bytes per top-level directory, recursively."""
    cases = []
    for _ in range(3):
        tree = _tree(rng, ["txt", "log"], rng.randint(4, 9))
        tree["src/lib/deep/x.bin"] = "x" * rng.randint(1, 50)
        cases.append((tree, ()))
    ref = '''
import os

def dir_sizes(root):
    sizes = {}
    for name in sorted(os.listdir(root)):
        top = os.path.join(root, name)
        if os.path.isdir(top):
            sizes[name] = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(top) for f in fs)
    return sizes
'''
    wrong = ['''
import os

def dir_sizes(root):
    sizes = {}
    for name in sorted(os.listdir(root)):
        top = os.path.join(root, name)
        if os.path.isdir(top):
            sizes[name] = sum(os.path.getsize(os.path.join(top, f)) for f in os.listdir(top) if os.path.isfile(os.path.join(top, f)))
    return sizes
''']
    return fs_spec("Write `dir_sizes(root)` returning a dict mapping each directory directly inside `root` to the total size "
                   "in bytes of all files below it (recursively). Files directly in root are not counted.",
                   "dir_sizes", ref, wrong, cases)


@family("files", "fs-number-files")
def number_files(rng):
    """Rename matching files to a zero-padded numbered sequence."""
    prefix = rng.choice(["img", "page", "part", "scan"])
    ext = rng.choice(["txt", "png", "md"])
    cases = []
    for _ in range(3):
        tree = {f"{rng.choice(WORDS)}{i}.{ext}": f"{i}\n" for i in range(rng.randint(2, 11))}
        tree["readme.rst"] = "leave me\n"
        cases.append((tree, (prefix, ext)))
    ref = '''
import os

def number_files(root, prefix, ext):
    names = sorted(n for n in os.listdir(root) if n.endswith("." + ext) and os.path.isfile(os.path.join(root, n)))
    width = max(3, len(str(len(names))))
    temp = []
    for i, name in enumerate(names):
        tmp = os.path.join(root, f".renaming-{i}")
        os.rename(os.path.join(root, name), tmp)
        temp.append(tmp)
    for i, tmp in enumerate(temp, 1):
        os.rename(tmp, os.path.join(root, f"{prefix}_{i:0{width}d}.{ext}"))
    return len(names)
'''
    wrong = ['''
import os

def number_files(root, prefix, ext):
    names = sorted(n for n in os.listdir(root) if n.endswith("." + ext))
    for i, name in enumerate(names, 1):
        os.rename(os.path.join(root, name), os.path.join(root, f"{prefix}_{i}.{ext}"))
    return len(names)
''']
    return fs_spec(f"Write `number_files(root, prefix, ext)` renaming the files directly in `root` ending in '.' + ext, taken "
                   f"in sorted name order, to PREFIX_001.EXT, PREFIX_002.EXT, ... (numbers zero-padded to 3 digits). Other "
                   f"files are untouched; return how many were renamed. Example call: number_files(root, {prefix!r}, {ext!r}).",
                   "number_files", ref, wrong, cases)


@family("files", "fs-grep-tree")
def grep_tree(rng):
    """Case-sensitive whole-word search across a tree."""
    word = rng.choice(NAMES)
    cases = []
    for _ in range(3):
        tree = {}
        for _ in range(rng.randint(3, 6)):
            lines = [rng.choice([f"hello {word}", f"{word.upper()} shouts", f"{word}s plural", "nothing", f"x {word}."]) for _ in range(rng.randint(1, 4))]
            tree[f"{rng.choice(['', 'a/', 'a/b/'])}{rng.choice(WORDS)}.txt"] = "\n".join(lines) + "\n"
        cases.append((tree, (word,)))
    # a file with ten hits or more (line 10 sorts after line 9), and a name with a colon in it
    cases.append(({"ab.txt": f"{word}\n" * 11, "ab:c.txt": f"x {word}\n", "a/b.txt": "nothing\n"}, (word,)))
    ref = '''
import os
import re

def grep_tree(root, word):
    pattern = re.compile(r"\\b" + re.escape(word) + r"\\b")
    hits = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path) as fh:
                for n, line in enumerate(fh, 1):
                    if pattern.search(line):
                        hits.append(f"{os.path.relpath(path, root)}:{n}")
    return sorted(hits, key=lambda h: (h.rsplit(":", 1)[0], int(h.rsplit(":", 1)[1])))
'''
    wrong = ['''
import os

def grep_tree(root, word):
    hits = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path) as fh:
                for n, line in enumerate(fh, 1):
                    if word.lower() in line.lower():
                        hits.append(f"{os.path.relpath(path, root)}:{n}")
    return sorted(hits)
''']
    return fs_spec("Write `grep_tree(root, word)` returning 'relative/path:line_number' for every line of every file under "
                   "`root` containing `word` as a whole word (case-sensitive), sorted by path, then line number.",
                   "grep_tree", ref, wrong, cases)


@family("files", "fs-clean-pattern")
def clean_pattern(rng):
    """Delete files matching glob patterns recursively and prune empty directories."""
    pats = rng.sample(["*.tmp", "*.log", "*~", "*.pyc"], 2)
    cases = []
    for _ in range(3):
        tree = _tree(rng, ["tmp", "log", "txt", "pyc"], rng.randint(4, 9))
        for pat in pats:  # a directory that only matching files fill: it must be pruned
            tree["cache/only" + pat[1:]] = "x\n"
        tree["keep.txt"] = "keep\n"
        cases.append((tree, (pats,)))
    # a directory emptied two levels down; and a tree of nothing but matches (root itself stays)
    cases.append(({"keep.txt": "k\n", "cache/deep/er" + pats[0][1:]: "x\n"}, (pats,)))
    cases.append(({"only" + pats[0][1:]: "x\n", "sub/only" + pats[1][1:]: "x\n"}, (pats,)))
    ref = '''
import fnmatch
import os

def clean(root, patterns):
    deleted = []
    for dirpath, dirnames, files in os.walk(root, topdown=False):
        for name in files:
            if any(fnmatch.fnmatch(name, p) for p in patterns):
                path = os.path.join(dirpath, name)
                os.remove(path)
                deleted.append(os.path.relpath(path, root))
        if dirpath != root and not os.listdir(dirpath):
            os.rmdir(dirpath)
    return sorted(deleted)
'''
    wrong = ['''
import fnmatch
import os

def clean(root, patterns):
    deleted = []
    for dirpath, dirnames, files in os.walk(root):
        for name in files:
            if any(fnmatch.fnmatch(name, p) for p in patterns):
                path = os.path.join(dirpath, name)
                os.remove(path)
                deleted.append(os.path.relpath(path, root))
    return sorted(deleted)
''']
    return fs_spec(f"Write `clean(root, patterns)` deleting every file under `root` (recursively) whose name matches one of "
                   f"the glob patterns (e.g. {pats!r}), then removing directories below root left empty. Return the sorted "
                   f"relative paths of the deleted files.", "clean", ref, wrong, cases)
