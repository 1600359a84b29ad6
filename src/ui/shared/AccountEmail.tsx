import { emailPart } from "./AccountEmail.css.ts"

/** An account's email in staff's tables and dialogs: it breaks before its @ if it must, never inside a name. */
export const AccountEmail = ({ address }: { readonly address: string }) => {
  const at = address.lastIndexOf("@")
  if (at <= 0) return <span className={emailPart}>{address}</span>
  return (
    <>
      <span className={emailPart}>{address.slice(0, at)}</span>
      <wbr />
      <span className={emailPart}>{address.slice(at)}</span>
    </>
  )
}
