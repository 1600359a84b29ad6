import { useSelector } from "@xstate/react"
import { selectSettings } from "../../machines/shell/bootMachine.ts"
import { useServices } from "../shared/ServicesContext.tsx"

/** The browser tab's title, page first so it survives truncation; React hoists it into <head>. */
export const PageTitle = ({ title }: { readonly title: string }) => {
  const { siteName } = useSelector(useServices().boot, selectSettings)
  return <title>{`${title} · ${siteName}`}</title>
}
