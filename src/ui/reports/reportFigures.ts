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

/** Under the light figures: what their "this month" means for the range picked. */
export const thisMonthLine = (rangeText: string): string => `"This month" rows cover ${rangeText}.`

/** Light mode (SPEC §2): subscribers now and this month, revenue this month and in all, with and without fees. */
export const lightFigures = ({ current, last30days: month, allTime }: Reports): ReadonlyArray<Figure> => [
  { label: "Current subscribers", value: count(current.subscriptions) },
  { label: "New subscribers this month", value: count(month.newSubscriptions) },
  { label: "Revenue this month", value: money(month.revenue) },
  { label: "Revenue this month excluding fees", value: money(revenueExcludingFees(month.revenue, month.ordersPaypalLast30Days)) },
  { label: "Total revenue", value: money(allTime.revenue) },
  { label: "Total revenue excluding fees", value: money(revenueExcludingFees(allTime.revenue, allTime.ordersPaypal)) }
]

interface Orders {
  readonly orders: number
  readonly paypal: number
  readonly btc: number
  readonly revenue: number
  readonly revenuePaypal: number
  readonly revenueBtc: number
}

/** The orders and revenue rows both detailed blocks end with, over their own period. */
const orderFigures = ({ orders, paypal, btc, revenue, revenuePaypal, revenueBtc }: Orders): ReadonlyArray<Figure> => [
  { label: "Orders", value: count(orders) },
  { label: "Orders by PayPal", value: count(paypal) },
  { label: "Orders paid by bitcoin", value: count(btc) },
  { label: "Revenue", value: money(revenue) },
  { label: "Revenue excluding fees", value: money(revenueExcludingFees(revenue, paypal)) },
  { label: "Revenue by PayPal", value: money(revenuePaypal) },
  { label: "Revenue by bitcoin", value: money(revenueBtc) }
]

/** Detailed mode (SPEC §2): the Total block and the This Month block. */
export const detailedFigures = ({ current, last30days: month, allTime }: Reports, monthTitle: string): ReadonlyArray<FigureBlock> => [
  {
    title: "Total",
    figures: [
      { label: "Current subs", value: count(current.subscriptions) },
      { label: "Subscriptions", value: count(allTime.subscriptions) },
      { label: "Members", value: count(allTime.members) },
      ...orderFigures({
        orders: allTime.numberOfPayments,
        paypal: allTime.ordersPaypal,
        btc: allTime.ordersBtc,
        revenue: allTime.revenue,
        revenuePaypal: allTime.revenuePaypal,
        revenueBtc: allTime.revenueBtc
      })
    ]
  },
  {
    title: monthTitle,
    figures: [
      { label: "New subscriptions", value: count(month.newSubscriptions) },
      { label: "New members", value: count(month.newMembers) },
      ...orderFigures({
        orders: month.numberOfPayments,
        paypal: month.ordersPaypalLast30Days,
        btc: month.ordersBtcLast30Days,
        revenue: month.revenue,
        revenuePaypal: month.revenuePaypalLast30Days,
        revenueBtc: month.revenueBtcLast30Days
      })
    ]
  }
]
