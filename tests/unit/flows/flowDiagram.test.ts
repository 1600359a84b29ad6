import { describe, expect, it } from "vitest"
import { and, assign, createMachine, fromPromise, setup } from "xstate"
import { flowDiagram } from "../../../scripts/flowDiagram.ts"
import { expectedFlowFiles, type FlowMachine, flowIndex, flowMarkdown } from "../../../scripts/flowPages.ts"

const lines = (mermaid: string) => mermaid.split("\n").map((line) => line.trim())

const form = setup({
  guards: { isValid: () => true, isOnline: () => true },
  actors: { send: fromPromise(async () => "sent") }
}).createMachine({
  id: "form",
  initial: "idle",
  states: {
    idle: { on: { "form.open": "editing" } },
    editing: {
      initial: "typing",
      states: {
        typing: { on: { "form.submit": { guard: "isValid", target: "sending" } } },
        sending: {
          invoke: {
            src: "send",
            onDone: { guard: { type: "isOnline" }, target: "#form.done" },
            onError: "typing"
          }
        }
      },
      on: { "form.close": "idle", "form.type": { actions: assign({}) } }
    },
    done: { type: "final" }
  }
})

describe("flowDiagram", () => {
  it("draws nested states inside their parent, each compound with its initial state", () => {
    const drawn = lines(flowDiagram(form).mermaid)
    expect(drawn[0]).toBe("stateDiagram-v2")
    expect(drawn).toContain("[*] --> idle")
    expect(drawn).toContain('state "editing" as editing {')
    expect(drawn).toContain("[*] --> editing__typing")
    expect(drawn).toContain('state "typing" as editing__typing')
    expect(drawn.indexOf('state "sending" as editing__sending')).toBeGreaterThan(drawn.indexOf('state "editing" as editing {'))
    expect(drawn).toContain("done --> [*]")
  })

  it("labels transitions with the event and the guard's name", () => {
    const drawn = lines(flowDiagram(form).mermaid)
    expect(drawn).toContain("idle --> editing : form.open")
    expect(drawn).toContain("editing__typing --> editing__sending : form.submit [isValid]")
    expect(drawn).toContain("editing --> idle : form.close")
  })

  it("labels an invoked actor's outcomes with the actor's name and lists what each state invokes", () => {
    const diagram = flowDiagram(form)
    expect(lines(diagram.mermaid)).toContain("editing__sending --> done : done(send) [isOnline]")
    expect(lines(diagram.mermaid)).toContain("editing__sending --> editing__typing : error(send)")
    expect(diagram.invoked).toEqual([{ state: "editing.sending", items: ["send"] }])
  })

  it("lists what a composite state handles without leaving it instead of looping around it", () => {
    const diagram = flowDiagram(form)
    expect(diagram.handled).toEqual([{ state: "editing", items: ["form.type"] }])
    expect(diagram.mermaid).not.toContain("editing --> editing")
  })

  it("draws delayed, eventless, inline-guarded and wildcard transitions", () => {
    const timer = setup({ delays: { patience: 5000 }, guards: { ready: () => true, warm: () => true } }).createMachine({
      id: "timer",
      initial: "waiting",
      states: {
        waiting: {
          after: { 2000: "late", patience: { target: "gone" } },
          on: { "volume.*": { actions: assign({}) }, "timer.poke": { guard: () => true, target: "late" } }
        },
        late: { always: [{ guard: and(["ready", "warm"]), target: "gone" }, { target: "waiting" }] },
        gone: { type: "final" }
      }
    })
    const drawn = lines(flowDiagram(timer).mermaid)
    expect(drawn).toContain("waiting --> late : timer.poke [guard]<br/>after 2000ms")
    expect(drawn).toContain("waiting --> gone : after patience")
    expect(drawn).toContain("waiting --> waiting : volume.*")
    expect(drawn).toContain("late --> gone : always [ready and warm]")
    expect(drawn).toContain("late --> waiting : always")
  })

  it("separates parallel regions and wraps a parallel machine in a state named after it", () => {
    const player = createMachine({
      id: "player",
      type: "parallel",
      states: {
        sound: {
          initial: "on",
          states: { on: { on: { "sound.mute": "off" } }, off: { on: { "sound.unmute": "on", "sound.reset": "off" } } },
          on: { "sound.reset": ".on" }
        },
        picture: {
          initial: "small",
          states: {
            small: { on: { "picture.grow": "big" } },
            big: { initial: "wide", states: { wide: {}, tall: {} }, on: { "picture.shrink": "small" } }
          }
        }
      }
    })
    const drawn = lines(flowDiagram(player).mermaid)
    expect(drawn.slice(0, 3)).toEqual(["stateDiagram-v2", 'state "player" as player {', 'state "sound" as sound {'])
    expect(drawn).toContain("--")
    expect(drawn).toContain("[*] --> player")
    expect(drawn).toContain("sound__on --> sound__off : sound.mute")
    // Mermaid cannot draw an arrow to or from a composite inside a region: its leaves stand in,
    // except one that handles the event itself
    expect(drawn).toContain("picture__small --> picture__big__wide : picture.grow")
    expect(drawn).toContain("picture__big__wide --> picture__small : picture.shrink")
    expect(drawn).toContain("picture__big__tall --> picture__small : picture.shrink")
    expect(drawn).toContain("sound__on --> sound__on : sound.reset")
    expect(drawn).toContain("sound__off --> sound__off : sound.reset")
    expect(drawn).not.toContain("sound__off --> sound__on : sound.unmute<br/>sound.reset")
  })

  it("makes Mermaid-safe ids from state paths and keeps the names as labels", () => {
    const odd = createMachine({
      id: "odd",
      initial: "state",
      states: { state: { on: { go: "two-words" } }, "two-words": {}, "has.dot": { on: { back: "two-words" } }, default: {} }
    })
    const drawn = lines(flowDiagram(odd).mermaid)
    expect(drawn).toContain('state "state" as s_state')
    expect(drawn).toContain('state "two-words" as two_words')
    expect(drawn).toContain('state "has.dot" as has_dot')
    expect(drawn).toContain('state "default" as s_default')
    expect(drawn).toContain("s_state --> two_words : go")
    expect(drawn).toContain("has_dot --> two_words : back")
  })

  it("gives the same text every time", () => {
    expect(flowDiagram(form).mermaid).toBe(flowDiagram(form).mermaid)
  })
})

describe("the generated files", () => {
  const entry: FlowMachine = { feature: "forms", source: "src/machines/forms/formMachine.ts", exportName: "formMachine", machine: form }

  it("puts each diagram in a fenced mermaid block under a heading naming the machine and its module", () => {
    const markdown = flowMarkdown(entry)
    expect(markdown.startsWith("# form — `src/machines/forms/formMachine.ts`\n")).toBe(true)
    expect(markdown).toContain("`formMachine`")
    expect(markdown).toContain(`\`\`\`mermaid\n${flowDiagram(form).mermaid}\n\`\`\``)
  })

  it("indexes the diagrams by feature and says how they are made", () => {
    const index = flowIndex([entry])
    expect(index).toContain("## forms")
    expect(index).toContain("[form](forms/formMachine.md)")
    expect(index).toContain("Generated by `npm run flows`; do not edit by hand.")
  })

  it("expects one file per machine plus the index, in a fixed order", () => {
    const other: FlowMachine = { ...entry, feature: "", exportName: "aMachine" }
    expect([...expectedFlowFiles([entry, other]).keys()]).toEqual(["README.md", "aMachine.md", "forms/formMachine.md"])
    expect(() => expectedFlowFiles([entry, { ...entry }])).toThrow("forms/formMachine.md")
  })
})
