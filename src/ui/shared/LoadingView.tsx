import { StatusView } from "./StatusView.tsx"

export const LoadingView = ({ placement = "screen" }: { readonly placement?: "screen" | "inline" }) => (
  <StatusView title="Loading…" placement={placement} busy role="status" />
)
