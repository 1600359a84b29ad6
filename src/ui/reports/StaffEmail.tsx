import { emailPart } from "./AdminReports.css.ts"

/** An account's email in a staff table: it breaks before its @ if it must, never inside a name. */
export const StaffEmail = ({ address }: { readonly address: string }) => {
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
