/** An email address that, short of room, breaks before its @ rather than anywhere. */
export const EmailAddress = ({ address }: { readonly address: string }) => {
  const at = address.lastIndexOf("@")
  return at <= 0 ? (
    address
  ) : (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  )
}
