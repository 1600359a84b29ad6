import { type Reports, revenueExcludingFees } from "../../domain/Reports.ts"

export interface Figure {
  readonly label: string
  readonly value: string
}

export interface FigureBlock {
  readonly title: string
  readonly figures: ReadonlyArray<Figure>
}

const count = (value: number): string => value.toLocaleString("en-GB")
const currency = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
const money = (value: number): string => currency.format(value)

/** Light mode (SPEC §2): subscribers now and this month, revenue this month and in all, with and without fees. */
export const lightFigures = ({ current, last30days: month, allTime }: Reports): ReadonlyArray<Figure> => [
  { label: "Current subscribers", value: count(current.subscriptions) },
  { label: "New subscribers this month", value: count(month.newSubscriptions) },
  { label: "Revenue this month", value: money(month.revenue) },
  { label: "Revenue this month excluding fees", value: money(revenueExcludingFees(month.revenue, month.ordersPaypalLast30Days)) },
  { label: "Total revenue", value: money(allTime.revenue) },
  { label: "Total revenue excluding fees", value: money(revenueExcludingFees(allTime.revenue, allTime.ordersPaypal)) }
]

/** Detailed mode (SPEC §2): the Total block and the This Month block. */
export const detailedFigures = ({ current, last30days: month, allTime }: Reports, monthTitle: string): ReadonlyArray<FigureBlock> => [
  {
    title: "Total",
    figures: [
      { label: "Current subs", value: count(current.subscriptions) },
      { label: "Subscriptions", value: count(allTime.subscriptions) },
      { label: "Members", value: count(allTime.members) },
      { label: "Orders", value: count(allTime.numberOfPayments) },
      { label: "Orders by PayPal", value: count(allTime.ordersPaypal) },
      { label: "Orders paid by bitcoin", value: count(allTime.ordersBtc) },
      { label: "Revenue", value: money(allTime.revenue) },
      { label: "Revenue excluding fees", value: money(revenueExcludingFees(allTime.revenue, allTime.ordersPaypal)) },
      { label: "Revenue by PayPal", value: money(allTime.revenuePaypal) },
      { label: "Revenue by bitcoin", value: money(allTime.revenueBtc) }
    ]
  },
  {
    title: monthTitle,
    figures: [
      { label: "New subscriptions", value: count(month.newSubscriptions) },
      { label: "New members", value: count(month.newMembers) },
      { label: "Orders", value: count(month.numberOfPayments) },
      { label: "Orders by PayPal", value: count(month.ordersPaypalLast30Days) },
      { label: "Orders paid by bitcoin", value: count(month.ordersBtcLast30Days) },
      { label: "Revenue", value: money(month.revenue) },
      { label: "Revenue excluding fees", value: money(revenueExcludingFees(month.revenue, month.ordersPaypalLast30Days)) },
      { label: "Revenue by PayPal", value: money(month.revenuePaypalLast30Days) },
      { label: "Revenue by bitcoin", value: money(month.revenueBtcLast30Days) }
    ]
  }
]
