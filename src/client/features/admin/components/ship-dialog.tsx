import { type RefObject, useEffect, useId, useRef } from "react";
import type { Path } from "react-hook-form";
import { toast } from "sonner";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import {
  CARRIER_MAX_LENGTH,
  type Order,
  type ShipOrderInput,
  shipOrderInputSchema,
  TRACKING_NUMBER_MAX_LENGTH,
} from "../../../../shared/orders.js";
import { DialogActions } from "../../../components/dialog-actions.js";
import { Form } from "../../../components/form.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { TextField } from "../../../components/text-field.js";
import { showServerError } from "../../../lib/form-errors.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useShipOrder } from "../api/ship-order.js";

const text = orderMessages.ship;
/** The dialog's two fields, both optional and free text. */
const SHIP_FIELDS = [
  { name: "carrier", label: text.carrier, maxLength: CARRIER_MAX_LENGTH },
  { name: "trackingNumber", label: text.trackingNumber, maxLength: TRACKING_NUMBER_MAX_LENGTH },
] as const satisfies readonly { name: Path<ShipOrderInput>; label: string; maxLength: number }[];
const FIELDS = SHIP_FIELDS.map((field) => field.name);
const EMPTY = { carrier: "", trackingNumber: "" };

/** What the ship route takes: a field left empty is not sent. */
const given = ({ carrier, trackingNumber }: ShipOrderInput): ShipOrderInput => ({
  ...(carrier ? { carrier } : {}),
  ...(trackingNumber ? { trackingNumber } : {}),
});

type Props = {
  /** The order being shipped; the dialog is open while there is one. */
  order: Order | null;
  onClose(): void;
  /** Takes focus once the order is shipped, since the Ship button that opened the dialog is gone. */
  regionRef: RefObject<HTMLElement | null>;
};

/**
 * Manage Orders' Ship: a modal on the native <dialog> (focus kept inside, Escape cancels, focus back
 * on Ship when cancelled) with the carrier and tracking number, both optional, checked by the ship
 * route's own schema; the server's refusal shows under its field or above the buttons.
 */
export function ShipDialog({ order, onClose, regionRef }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const shipped = useRef(false);
  const titleId = useId();
  const leadId = useId();
  const ship = useShipOrder();
  const form = useSchemaForm(shipOrderInputSchema, { defaultValues: EMPTY });
  const { reset, setError, setFocus } = form;
  const field = bindFields(form);
  const open = order !== null;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      reset(EMPTY);
      dialog.showModal();
      setFocus("carrier");
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, reset, setFocus]);

  const submit = bindSubmit(form, (values) => {
    if (!order) return;
    ship.mutate(
      { id: order.id, input: given(values) },
      {
        onSuccess: () => {
          toast.success(adminMessages.orders.markedShipped);
          shipped.current = true;
          dialogRef.current?.close();
        },
        onError: (error) => showServerError(error, FIELDS, setError),
      },
    );
  });

  return (
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={leadId}
      onCancel={(event) => {
        if (ship.isPending) event.preventDefault();
      }}
      onClose={() => {
        onClose();
        if (shipped.current) {
          shipped.current = false;
          regionRef.current?.focus();
        }
      }}
    >
      <div className="modal-box border border-base-content/10">
        <h2 id={titleId} className="text-lg font-bold">
          {text.title}
        </h2>
        <p id={leadId} className="py-3 text-base-content/85">
          {order ? text.lead(order.productName, order.name) : ""}
        </p>
        <Form
          {...submit}
          actions={
            <DialogActions
              cancelLabel={text.cancel}
              pending={ship.isPending}
              onCancel={() => dialogRef.current?.close()}
            >
              <SubmitButton pending={ship.isPending} className="">
                {text.confirm}
              </SubmitButton>
            </DialogActions>
          }
        >
          {SHIP_FIELDS.map(({ name, label, maxLength }) => (
            <TextField key={name} label={label} autoComplete="off" maxLength={maxLength} {...field(name)} />
          ))}
        </Form>
      </div>
    </dialog>
  );
}
