import { costAfterRedeeming, formatPrice } from "../../domain/Invitation.ts"
import { controlRow, fieldLabel, textInput } from "../shared/controls.css.ts"
import { Panel } from "../shared/Panel.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./InvitesView.css.ts"

interface RedemptionPanelProps {
  readonly options: ReadonlyArray<number>
  readonly chosen: number
  readonly pricePerPoint: number
  readonly monthlyPrice: number
  readonly listPrice: number
  readonly onChoose: (points: number) => void
}

/** SPEC §2's reward-redemption selector: 0 up to the points whose value still fits in a month's price. */
export const RedemptionPanel = ({ options, chosen, pricePerPoint, monthlyPrice, listPrice, onChoose }: RedemptionPanelProps) => {
  const cost = costAfterRedeeming(monthlyPrice, chosen, pricePerPoint)
  const discounted = monthlyPrice < listPrice
  return (
    <Panel title="Redeem reward points">
      <p className={surfaces.muted}>
        A month costs {formatPrice(monthlyPrice)}
        {discounted ? ` after the discount (list price ${formatPrice(listPrice)})` : ""}. Each point takes {formatPrice(pricePerPoint)} off,
        as far as a month&apos;s price goes.
      </p>
      <div className={controlRow}>
        <div>
          <label className={fieldLabel} htmlFor="redeem-points">
            Points to redeem
          </label>
          <select
            id="redeem-points"
            className={`${textInput} ${styles.redeemSelect}`}
            value={chosen}
            aria-describedby="redeem-cost"
            onChange={(event) => onChoose(Number(event.target.value))}
          >
            {options.map((points) => (
              <option key={points} value={points}>
                {points === 1 ? "1 point" : `${points} points`}
              </option>
            ))}
          </select>
        </div>
        <p id="redeem-cost" className={styles.cost} aria-live="polite">
          Next month would cost <span className={styles.costValue}>{formatPrice(cost)}</span>
        </p>
      </div>
      <p className={surfaces.muted}>Nothing is charged while the site is free to use; your points stay for when it is not.</p>
    </Panel>
  )
}
