#!/usr/bin/env python3
"""Checks ARCHITECTURE.md's crate table and crate graph against the workspace (cargo metadata)."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = "ARCHITECTURE.md"
GRAPH_FENCE = "crate-graph"
TABLE_HEADING = "## Crates"
ARROWS = ("→", "->")


def fail(message):
    print(f"check-architecture: {message}", file=sys.stderr)
    sys.exit(1)


def workspace():
    """The workspace's crates: name -> (its folder, the workspace crates it depends on as normal dependencies, on any target)."""
    try:
        run = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            cwd=ROOT,
            capture_output=True,
            encoding="utf-8",
            check=False,
        )
    except OSError as error:
        fail(f"cannot run cargo metadata: {error}")
    if run.returncode != 0:
        fail(f"cargo metadata failed:\n{run.stderr.strip()}")
    metadata = json.loads(run.stdout)
    root = metadata["workspace_root"]
    members = set(metadata["workspace_members"])
    packages = [p for p in metadata["packages"] if p["id"] in members]
    by_dir = {os.path.dirname(p["manifest_path"]): p["name"] for p in packages}
    crates = {}
    for package in packages:
        folder = relative(os.path.dirname(package["manifest_path"]), root)
        deps = {
            by_dir[d["path"]]
            for d in package["dependencies"]
            if d["kind"] is None and d.get("path") in by_dir
        }
        crates[package["name"]] = (folder, deps)
    return crates


def relative(path, root):
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return "" if rel == "." else rel


def crate_name(short):
    """`engine` -> `hearth-engine`; `hearth`, the app, and full names stay as they are."""
    return short if short == "hearth" or short.startswith("hearth-") else f"hearth-{short}"


def code(cell):
    """The first `backquoted` text of a table cell."""
    parts = cell.split("`")
    return parts[1].strip() if len(parts) >= 3 else cell.strip()


def read_table(lines, problems):
    """The table under "## Crates": package name -> folder."""
    starts = [i for i, line in enumerate(lines) if line.strip() == TABLE_HEADING]
    if not starts:
        problems.append(f'{DOC} has no "{TABLE_HEADING}" section with the crate table')
        return {}
    start = starts[0]
    rows = {}
    for number, line in enumerate(lines[start + 1 :], start + 2):
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "crate" or set(cells[0]) <= set("-: "):
            continue  # the header and its separator
        name = code(cells[0])
        folder = code(cells[1]).rstrip("/") if len(cells) > 1 else ""
        if name in rows:
            problems.append(f"{DOC}:{number}: the crate table lists {name} twice")
        rows[name] = (folder, number)
    if not rows:
        problems.append(f'the "{TABLE_HEADING}" section has no table rows')
    return rows


def read_graph(lines, problems):
    """The ```crate-graph block: package name -> (its dependencies, line number), in order."""
    starts = [i for i, line in enumerate(lines) if line.strip() == "```" + GRAPH_FENCE]
    if len(starts) != 1:
        found = len(starts)
        problems.append(f"{DOC} must hold exactly one ```{GRAPH_FENCE} block (found {found})")
        return {}
    graph, current = {}, None
    for number, line in enumerate(lines[starts[0] + 1 :], starts[0] + 2):
        if line.strip().startswith("```"):
            break
        if not line.strip() or line.strip().startswith("#"):
            current = None
            continue
        if line[0].isspace():  # a continuation of the line above
            if current is None:
                problems.append(f"{DOC}:{number}: an indented line continues no crate line")
                continue
            head, rest = current, line
        else:
            head, rest = line, ""
            for arrow in ARROWS:
                if arrow in line:
                    head, rest = line.split(arrow, 1)
                    break
            head = head.strip()
            if not head or " " in head:
                found = line.strip()
                problems.append(f"{DOC}:{number}: expected `crate → dep, dep`, found: {found}")
                current = None
                continue
            head = crate_name(head)
            if head in graph:
                problems.append(f"{DOC}:{number}: the crate graph lists {head} twice")
            graph[head] = (set(), number)
            current = head
        deps = [d.strip() for d in rest.split(",") if d.strip()]
        graph[current][0].update(crate_name(d) for d in deps)
    else:
        problems.append(f"the ```{GRAPH_FENCE} block in {DOC} is not closed")
    return graph


def main():
    crates = workspace()
    path = os.path.join(ROOT, DOC)
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
    except OSError as error:
        fail(f"cannot read {DOC}: {error}")
    problems = []
    table = read_table(lines, problems)
    graph = read_graph(lines, problems)
    real = set(crates)

    for name in sorted(real - set(table)):
        problems.append(f"the crate table lacks {name} ({crates[name][0]}/)")
    for name in sorted(set(table) - real):
        number = table[name][1]
        problems.append(f"{DOC}:{number}: the crate table lists {name}, not a workspace crate")
    for name in sorted(real & set(table)):
        folder, number = table[name]
        if folder != crates[name][0]:
            problems.append(f"{DOC}:{number}: {name} is not in `{folder}/`")

    for name in sorted(real - set(graph)):
        deps = ", ".join(sorted(crates[name][1])) or "nothing"
        problems.append(f"the crate graph lacks {name} (→ {deps})")
    for name in sorted(set(graph) - real):
        number = graph[name][1]
        problems.append(f"{DOC}:{number}: the crate graph lists {name}, not a workspace crate")
    order = list(graph)
    for name in sorted(real & set(graph)):
        said, number = graph[name]
        actual = crates[name][1]
        for dep in sorted(actual - said):
            problems.append(f"{DOC}:{number}: {name} depends on {dep}; its line does not say so")
        for dep in sorted(said - actual):
            problems.append(f"{DOC}:{number}: {name} does not depend on {dep}; its line says so")
        for dep in sorted(said & actual):
            if dep in graph and order.index(dep) > order.index(name):
                problems.append(
                    f"{DOC}:{number}: {name} comes before its dependency {dep} (line "
                    f"{graph[dep][1]}): the graph lists each crate after the crates it uses"
                )

    if problems:
        print(f"check-architecture: {DOC} does not match the workspace:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        print(
            f"Update the crate table and the ```{GRAPH_FENCE} block of {DOC} to the Cargo.toml "
            "files (normal dependencies between Hearth's own crates only).",
            file=sys.stderr,
        )
        sys.exit(1)
    edges = sum(len(deps) for _, deps in crates.values())
    print(f"{DOC} matches the workspace: {len(crates)} crates, {edges} dependencies between them")


if __name__ == "__main__":
    main()
