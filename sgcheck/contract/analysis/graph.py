"""Strongly connected components and shortest cycles on adjacency lists.

Iterative (no recursion), so a 10,000-card pack cannot exhaust the stack; Tarjan's
algorithm is linear in nodes + edges.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def strongly_connected(adjacency: Sequence[Sequence[int]]) -> list[list[int]]:
    """Tarjan's SCCs of the graph ``node -> adjacency[node]``, in reverse topological order."""
    count = len(adjacency)
    index = [-1] * count
    low = [0] * count
    on_stack = [False] * count
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0
    for root in range(count):
        if index[root] != -1:
            continue
        work: list[tuple[int, int]] = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, position = work[-1]
            edges = adjacency[node]
            if position < len(edges):
                work[-1] = (node, position + 1)
                child = edges[position]
                if index[child] == -1:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    work.append((child, 0))
                elif on_stack[child]:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[int] = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


def is_cyclic(component: Sequence[int], adjacency: Sequence[Sequence[int]]) -> bool:
    """A component holds a cycle if it has two nodes or one node with an edge to itself."""
    return len(component) > 1 or component[0] in adjacency[component[0]]


def shortest_cycle(start: int, members: set[int], adjacency: Sequence[Sequence[int]]) -> list[int]:
    """The shortest cycle through ``start`` inside ``members`` (breadth-first), as a node list."""
    parent: dict[int, int] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for child in adjacency[node]:
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if child in members and child not in seen:
                seen.add(child)
                parent[child] = node
                queue.append(child)
    return []
