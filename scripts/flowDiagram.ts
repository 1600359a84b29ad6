import { type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition, StateMachine } from "xstate"

/** What a composite state does without leaving it, or which actors a state runs. */
export interface StateNote {
  readonly state: string
  readonly items: ReadonlyArray<string>
}

export interface FlowDiagram {
  readonly mermaid: string
  readonly handled: ReadonlyArray<StateNote>
  readonly invoked: ReadonlyArray<StateNote>
}

export const isMachine = (value: unknown): value is AnyStateMachine => value instanceof StateMachine

// Words Mermaid's state-diagram lexer reads as keywords; `root` and `X_start`/`X_end` are ids it makes itself.
const RESERVED = new Set([
  "as",
  "class",
  "classdef",
  "click",
  "direction",
  "end",
  "hide",
  "href",
  "note",
  "root",
  "scale",
  "state",
  "style"
])
const isComposite = (node: AnyStateNode) => node.type === "compound" || node.type === "parallel"
const childrenOf = (node: AnyStateNode): AnyStateNode[] => Object.values(node.states)
const descendants = (node: AnyStateNode): AnyStateNode[] => [node, ...childrenOf(node).flatMap(descendants)]
// A label ends at `:` or `;` and a state name at `"`: keep only what every Mermaid version reads as text.
const text = (value: string) => value.replace(/[^\p{L}\p{N}_ .*\-()[\]!&|,'/]/gu, "_")
const safeId = (value: string) => value.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=[0-9]|$)/, "s_")

function guardLabel(guard: unknown, nested = false): string {
  if (typeof guard === "string") return guard
  if (typeof guard === "function") {
    const inner = (guard as { guards?: unknown[] }).guards?.map((part) => guardLabel(part, true))
    if (guard.name === "not" && inner) return `not ${inner[0]}`
    if ((guard.name === "and" || guard.name === "or") && inner) {
      const joined = inner.join(` ${guard.name} `)
      return nested ? `(${joined})` : joined
    }
    if (guard.name === "stateIn") return `in ${JSON.stringify((guard as { stateValue?: unknown }).stateValue)}`
    return "guard"
  }
  if (guard !== null && typeof guard === "object" && "type" in guard) return String(guard.type)
  return "guard"
}

function actorName(node: AnyStateNode, invokeId: string): string {
  const invoked = node.invoke.find((definition) => definition.id === invokeId)
  if (invoked === undefined) return invokeId
  return typeof invoked.src === "string" && !invoked.src.startsWith("xstate.invoke.") ? invoked.src : invoked.id
}

const ACTOR_EVENTS = [
  ["xstate.done.actor.", "done"],
  ["xstate.error.actor.", "error"],
  ["xstate.snapshot.", "snapshot"]
] as const

function eventLabel(node: AnyStateNode, transition: AnyTransitionDefinition): string {
  const type = String(transition.eventType)
  const delay = (transition as { delay?: unknown }).delay
  if (type === "") return "always"
  if (delay !== undefined) return typeof delay === "number" ? `after ${delay}ms` : `after ${String(delay)}`
  for (const [prefix, word] of ACTOR_EVENTS) {
    if (type.startsWith(prefix)) return `${word}(${actorName(node, type.slice(prefix.length))})`
  }
  return type.startsWith("xstate.done.state.") ? "done" : type
}

const transitionLabel = (node: AnyStateNode, transition: AnyTransitionDefinition) =>
  text(transition.guard === undefined ? eventLabel(node, transition) : `${eventLabel(node, transition)} [${guardLabel(transition.guard)}]`)

const contains = (outer: AnyStateNode, node: AnyStateNode | undefined): boolean =>
  node !== undefined && (node === outer || contains(outer, node.parent))
const insideParallel = (node: AnyStateNode): boolean =>
  node.parent !== undefined && (node.parent.type === "parallel" || insideParallel(node.parent))
const leavesOf = (node: AnyStateNode): AnyStateNode[] =>
  isComposite(node) ? childrenOf(node).flatMap(leavesOf) : node.type === "history" ? [] : [node]
const leafOf = (node: AnyStateNode): AnyStateNode => {
  const next = node.type === "compound" ? node.initial.target[0] : node.type === "parallel" ? childrenOf(node)[0] : undefined
  return next === undefined ? node : leafOf(next)
}
const endpoint = (node: AnyStateNode) => (insideParallel(node) ? leafOf(node) : node)

/** Ids from state paths, clear of Mermaid's keywords and of the start and end ids it makes. */
function mermaidIds(machine: AnyStateMachine, drawn: ReadonlyArray<AnyStateNode>): Map<AnyStateNode, string> {
  const paths = new Map(drawn.map((node) => [node, node === machine.root ? safeId(machine.id) : node.path.map(safeId).join("__")]))
  const taken = new Set([
    "root_start",
    "root_end",
    ...drawn.filter(isComposite).flatMap((n) => [`${paths.get(n)}_start`, `${paths.get(n)}_end`])
  ])
  const ids = new Map<AnyStateNode, string>()
  for (const [node, path] of paths) {
    const base = RESERVED.has(path.toLowerCase()) || /^default/i.test(path) ? `s_${path}` : path
    let id = base
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`
    taken.add(id)
    ids.set(node, id)
  }
  return ids
}

/**
 * Mermaid crashes on an arrow to or from a composite state inside a parallel region, and on a
 * loop around a nested composite, so such arrows are redrawn from each leaf inside the composite
 * and to its initial leaf, and what a composite handles without leaving it is listed apart.
 * An arrow lives in its endpoints' common parent block, else at the top level, because older
 * renderers move a state into whichever block names it last.
 */
export function flowDiagram(machine: AnyStateMachine): FlowDiagram {
  const root = machine.root
  const nodes = descendants(root)
  const raw = nodes.flatMap((source) =>
    [...[...source.transitions.values()].flat(), ...(source.always ?? [])].map((transition) => ({
      source,
      event: String(transition.eventType),
      guarded: transition.guard !== undefined,
      targets: [...(transition.target ?? [])] as AnyStateNode[],
      label: transitionLabel(source, transition)
    }))
  )
  const stays = (t: (typeof raw)[number]) => t.targets.length === 0 || (t.targets.length === 1 && t.targets[0] === t.source)
  const wrap = root.type === "parallel" || raw.some((t) => (t.source === root && !stays(t)) || t.targets.includes(root))

  const ids = mermaidIds(machine, wrap ? nodes : nodes.slice(1))
  const idOf = (node: AnyStateNode) => ids.get(node) ?? node.id

  // a state that always handles the event itself never lets its ancestor's transition run
  const shadowed = (leaf: AnyStateNode, above: AnyStateNode, event: string) =>
    raw.some((t) => t.event === event && !t.guarded && t.source !== above && contains(above, t.source) && contains(t.source, leaf))
  const sourcesOf = (t: (typeof raw)[number]) =>
    insideParallel(t.source) && isComposite(t.source) ? leavesOf(t.source).filter((leaf) => !shadowed(leaf, t.source, t.event)) : [t.source]

  const DOCUMENT = wrap ? null : root
  // inside a parallel state an arrow stays in its region's block, where renderers cope with it best
  const scopeOf = (from: AnyStateNode, to: AnyStateNode) => {
    let common = from.parent
    while (common !== undefined && (!contains(common, to) || common.type === "parallel")) common = common.parent
    if (common === undefined) return DOCUMENT
    return (from.parent === common && to.parent === common) || insideParallel(common) ? common : DOCUMENT
  }
  const scopes = new Map<AnyStateNode | null, Map<string, string[]>>()
  const handled = new Map<AnyStateNode, string[]>()
  const add = <K>(map: Map<K, string[]>, key: K, label: string) => {
    const labels = map.get(key)
    if (labels === undefined) map.set(key, [label])
    else if (!labels.includes(label)) labels.push(label)
  }
  for (const t of raw) {
    if (stays(t) && isComposite(t.source)) {
      add(handled, t.source, t.targets.length === 0 ? t.label : `${t.label} (re-enters)`)
      continue
    }
    for (const from of sourcesOf(t)) {
      for (const to of (t.targets.length === 0 ? [t.source] : t.targets).map(endpoint)) {
        const scope = scopeOf(from, to)
        const edges = scopes.get(scope) ?? new Map<string, string[]>()
        scopes.set(scope, edges)
        add(edges, `${idOf(from)} --> ${idOf(to)}`, t.label)
      }
    }
  }
  const edgeLines = (scope: AnyStateNode | null, pad: string) =>
    [...(scopes.get(scope) ?? [])].map(([edge, labels]) => `${pad}${edge} : ${labels.join("<br/>")}`)

  const label = (node: AnyStateNode) =>
    node === root ? text(machine.id) : node.type === "history" ? (node.history === "deep" ? "H*" : "H") : text(node.key)
  const body = (node: AnyStateNode, pad: string): string[] => {
    const children = childrenOf(node)
    if (node.type === "parallel") return children.flatMap((child, i) => [...(i > 0 ? [`${pad}--`] : []), ...declare(child, pad)])
    const initial = node.initial.target[0]
    return [
      ...(initial === undefined ? [] : [`${pad}[*] --> ${idOf(initial)}`]),
      ...children.flatMap((child) => declare(child, pad)),
      ...edgeLines(node, pad),
      ...children.filter((child) => child.type === "final").map((child) => `${pad}${idOf(child)} --> [*]`)
    ]
  }
  const declare = (node: AnyStateNode, pad: string): string[] =>
    isComposite(node)
      ? [`${pad}state "${label(node)}" as ${idOf(node)} {`, ...body(node, `${pad}  `), `${pad}}`]
      : [`${pad}state "${label(node)}" as ${idOf(node)}`]

  const lines = wrap ? [...declare(root, "  "), `  [*] --> ${idOf(root)}`, ...edgeLines(null, "  ")] : body(root, "  ")
  const notes = (pick: (node: AnyStateNode) => string[]) =>
    nodes
      .filter((node) => pick(node).length > 0)
      .map((node) => ({ state: node === root ? machine.id : node.path.join("."), items: pick(node) }))
  return {
    mermaid: ["stateDiagram-v2", ...lines].join("\n"),
    handled: notes((node) => handled.get(node) ?? []),
    invoked: notes((node) => node.invoke.map((definition) => text(actorName(node, definition.id))))
  }
}
