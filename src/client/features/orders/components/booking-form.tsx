import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Path } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import type { Profile } from "../../../../shared/accounts.js";
import type { Product } from "../../../../shared/catalog.js";
import { MIN_ORDER_QUANTITY } from "../../../../shared/constants.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import { amountLines, formatTotal } from "../../../../shared/order-amounts.js";
import {
  type OrderInput,
  orderInputSchema,
  orderTotalTooLarge,
  withinOrderTotal,
} from "../../../../shared/orders.js";
import { discountCodeEntrySchema, tierPrice } from "../../../../shared/pricing.js";
import { problemCodes } from "../../../../shared/problem-codes.js";
import { AddressField, EmailField, NameField, PhoneField } from "../../../components/account-fields.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { ImageField } from "../../../components/image-field.js";
import { AmountList } from "../../../components/order-amounts.js";
import { SubmitRow } from "../../../components/submit-row.js";
import { TextField } from "../../../components/text-field.js";
import { WholeNumberField } from "../../../components/whole-number-field.js";
import { hasCode } from "../../../lib/api.js";
import { type SessionUser, sessionQueryKey } from "../../../lib/auth.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { formatCount, formatPrice } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { randomKey } from "../../../lib/random-key.js";
import { useImageUpload } from "../../../lib/use-image-upload.js";
import { useLoadedValues } from "../../../lib/use-loaded-values.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { usePlaceOrder } from "../api/place-order.js";
import { useQuote } from "../api/quote.js";

const text = orderMessages.form;
const pricing = pricingMessages;

const shape = orderInputSchema.shape;

/**
 * The booking rules of the server, with the product's current stock as the upper bound and the
 * most one order may total.
 */
function bookingSchema(product: Pick<Product, "quantity" | "price" | "priceTiers">) {
  return z.object({
    quantity: shape.quantity
      .max(product.quantity, orderMessages.outOfStock)
      .refine(
        (quantity) => withinOrderTotal(tierPrice(product.price, product.priceTiers, quantity), quantity),
        orderTotalTooLarge(),
      ),
    address: shape.address,
    phone: shape.phone,
    // Empty means none: the optional fields' schemas apply to what is written.
    discountCode: z.union([z.literal(""), discountCodeEntrySchema]).optional(),
    companyName: shape.companyName,
    companyTaxId: shape.companyTaxId,
  });
}
type BookingFields = z.input<ReturnType<typeof bookingSchema>>;
const FIELDS: readonly Path<BookingFields>[] = [
  "quantity",
  "address",
  "phone",
  "discountCode",
  "companyName",
  "companyTaxId",
];

/**
 * The delivery details a saved profile gives the booking form: its address with the city, its
 * phone and company. Without a saved profile, the phone given at sign-up (the profile's answer
 * carries it then: server/features/profile/service.ts), so a new customer types only the address.
 */
function deliveryFields(
  profile: Profile | undefined,
): Partial<Pick<BookingFields, "address" | "phone" | "companyName" | "companyTaxId">> | undefined {
  if (!profile) return undefined;
  if (!profile.exists) return profile.phone ? { phone: profile.phone } : undefined;
  return {
    address: [profile.address, profile.city].filter(Boolean).join(", "),
    phone: profile.phone,
    companyName: profile.companyName,
    companyTaxId: profile.companyTaxId,
  };
}

/**
 * The product page's booking form (docs/product.md, Rules: Orders). The image is uploaded first; when that
 * fails no order is sent and the reason is shown. Retries of one booking share an Idempotency-Key.
 * The form does not wait for the saved profile (`profile`, read by the route, undefined until it
 * arrives): when it arrives, it fills the address and contact number unless the customer has typed
 * into them already.
 */
export function BookingForm({
  product,
  user,
  profile,
}: {
  product: Product;
  user: SessionUser;
  profile: Profile | undefined;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const place = usePlaceOrder();
  const image = useImageUpload();
  const attempt = useRef<{ input: string; key: string }>(undefined);
  const schema = useMemo(() => bookingSchema(product), [product]);
  const delivery = deliveryFields(profile);
  const form = useSchemaForm(schema, {
    defaultValues: {
      quantity: Math.min(MIN_ORDER_QUANTITY, product.quantity),
      address: delivery?.address ?? "",
      phone: delivery?.phone ?? "",
      discountCode: "",
      companyName: delivery?.companyName ?? "",
      companyTaxId: delivery?.companyTaxId ?? "",
    },
  });
  const { watch, trigger, setError, getValues } = form;
  const field = bindFields(form);
  useLoadedValues(form, delivery);

  const quantity = watch("quantity");
  // The total shows, and Book is enabled, for a quantity the form's own schema accepts.
  const quantityOk = schema.shape.quantity.safeParse(quantity).success;
  const busy = image.uploading || place.isPending;
  const unitPrice = tierPrice(product.price, product.priceTiers, quantityOk ? quantity : 0);
  // The code the customer applied: the quote shows its discount, and a refusal its reason.
  const [appliedCode, setAppliedCode] = useState<string>();
  const quote = useQuote(
    { productId: product.id, quantity, ...(appliedCode ? { discountCode: appliedCode } : {}) },
    quantityOk,
  );
  useEffect(() => {
    if (!quote.error || !hasCode(quote.error, problemCodes.discountCodeRefused)) return;
    setError("discountCode", { message: problemMessage(quote.error) });
    setAppliedCode(undefined);
  }, [quote.error, setError]);
  const applyCode = async () => {
    if (!(await trigger("discountCode"))) return;
    const code = getValues("discountCode")?.trim();
    setAppliedCode(code ? code.toUpperCase() : undefined);
  };
  // The figures shown: the server's quote for this quantity, or the form's own until it answers.
  const figures = quote.data?.totalPrice === unitPrice * quantity ? quote.data : undefined;

  /** One key per distinct booking: a retry of the same input reuses it, a changed input gets a new one. */
  function idempotencyKeyFor(input: OrderInput): string {
    const serialized = JSON.stringify(input);
    if (attempt.current?.input !== serialized) attempt.current = { input: serialized, key: randomKey() };
    return attempt.current.key;
  }

  const submit = bindSubmit(form, async (values) => {
    let img: string | undefined;
    if (image.file) {
      const uploaded = await image.upload(image.file);
      if (uploaded.problem !== undefined) {
        toast.error(orderMessages.imageFailed(uploaded.problem));
        return;
      }
      img = uploaded.url;
    }
    const { discountCode, companyName, companyTaxId, ...delivery } = values;
    const input: OrderInput = {
      productId: product.id,
      ...delivery,
      ...(discountCode?.trim() ? { discountCode: discountCode.trim() } : {}),
      ...(companyName?.trim() ? { companyName: companyName.trim() } : {}),
      ...(companyTaxId?.trim() ? { companyTaxId: companyTaxId.trim() } : {}),
      ...(img ? { img } : {}),
    };
    place.mutate(
      { input, idempotencyKey: idempotencyKeyFor(input) },
      {
        onSuccess: (order) => {
          // The spec returns the customer home after Book; the toast offers the way on to paying.
          toast.success(orderMessages.booked, {
            action: {
              label: orderMessages.payNow,
              onClick: () => navigate(paths.dashboard.payment(order.id)),
            },
          });
          navigate(paths.home);
        },
        onError: (error) => {
          toast.error(problemMessage(error));
          showServerError(error, FIELDS, setError);
          // The session said verified, the shop says not (say, another tab changed the account):
          // reloaded, it puts the page's notice to verify in place of this form.
          if (hasCode(error, problemCodes.emailNotVerified))
            void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
        },
      },
    );
  });

  if (product.quantity < MIN_ORDER_QUANTITY) {
    return (
      <div role="status" className="alert alert-warning alert-soft">
        {text.soldOut}
      </div>
    );
  }

  return (
    <FormCard
      title={text.title}
      lead={text.lead}
      smallLead
      {...submit}
      actions={
        <SubmitRow
          label={text.book}
          pending={busy}
          disabled={!quantityOk}
          buttonClass="min-w-32"
          before={
            <div aria-live="polite">
              {quantityOk ? (
                <>
                  {figures && amountLines(figures).length > 1 ? (
                    <AmountList lines={amountLines(figures).slice(0, -1)} className="text-sm" />
                  ) : null}
                  <p className="text-lg font-semibold">
                    {text.total(formatTotal(figures?.grossCents ?? unitPrice * quantity * 100))}
                  </p>
                </>
              ) : null}
            </div>
          }
        />
      }
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <NameField label={text.name} value={user.name} readOnly />
        <EmailField label={text.email} value={user.email} readOnly />
        <WholeNumberField
          label={text.quantity}
          min={MIN_ORDER_QUANTITY}
          max={product.quantity}
          hint={`${text.quantityHint(formatCount(product.quantity))} ${pricing.tiers.unitPrice}: ${formatPrice(unitPrice)}.`}
          {...field("quantity", {
            valueAsNumber: true,
            // The quantity's messages are evaluated on every change (docs/product.md, Rules).
            onChange: () => void trigger("quantity"),
          })}
        />
        <PhoneField label={text.phone} {...field("phone")} />
        <div className="sm:col-span-2">
          <AddressField label={text.address} {...field("address")} />
        </div>
        <div className="flex items-end gap-2">
          <div className="grow">
            <TextField label={pricing.code.label} autoComplete="off" {...field("discountCode")} />
          </div>
          <button type="button" className="btn btn-outline mb-[1.6rem]" onClick={() => void applyCode()}>
            {pricing.code.apply}
          </button>
        </div>
        <TextField label={pricing.company.name} autoComplete="organization" {...field("companyName")} />
        <TextField label={pricing.company.taxId} {...field("companyTaxId")} />
        <div className="sm:col-span-2">
          <ImageField label={text.image} hint={text.imageHint} disabled={busy} {...image.field} />
        </div>
      </div>
    </FormCard>
  );
}
