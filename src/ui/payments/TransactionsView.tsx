import { PageView } from "../shared/PageView.tsx"

/** /transactions (SPEC §2): the viewer's payments. */
export const TransactionsView = () => <PageView title="Transactions" lead="Your payments." />
