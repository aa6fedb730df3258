import { paymentMessages } from "../../../../shared/messages/payments.js";
import { PendingButton } from "../../../components/pending-button.js";

const text = paymentMessages.page;

type Props = {
  /** The provider can take the card (its script, the client secret and the card field are there). */
  ready: boolean;
  paying: boolean;
  amountLabel: string;
};

/** Pay with the amount; it spins while the form is getting ready, too, so it never looks dead. */
export function PayButton({ ready, paying, amountLabel }: Props) {
  return (
    <PendingButton type="submit" className="btn btn-primary" pending={paying || !ready}>
      {paying ? text.paying : text.pay(amountLabel)}
    </PendingButton>
  );
}
