import { describe, expect, it } from "vitest"
import { root, staticGraph } from "../../support/staticGraph.ts"

describe("the page's entry", () => {
  it("loads no UI framework, router, state machines or schema library before a player page's first frame", () => {
    const { files, packages } = staticGraph("src/app/main.tsx")
    expect([...packages].sort()).toEqual(["@vanilla-extract/css", "hls.js"])
    expect([...files].map((file) => file.slice(root.length + 1)).filter((file) => /machines\/|\.tsx$/.test(file))).toEqual([
      "src/app/main.tsx"
    ])
  })

  it("mounts the app with the shell's machines only: each feature's machines load with its first page", () => {
    const { files, packages } = staticGraph("src/app/mountApp.tsx")
    const machines = [...files].map((file) => file.slice(root.length + 1)).filter((file) => file.includes("/machines/"))
    // sign-in is the shell's: its form (with the resend of a verification email it may offer) is
    // the only page machine a visit's first page always needs
    expect(machines.filter((file) => !file.startsWith("src/machines/shell/") && !file.startsWith("src/machines/shared/"))).toEqual([
      "src/machines/account/loginFormMachine.ts",
      "src/machines/account/resendVerificationMachine.ts"
    ])
    // the contract's schemas need no calendar: date arithmetic comes with the pages that do it
    expect([...packages].filter((name) => name.includes("date-fns"))).toEqual([])
  })
})
