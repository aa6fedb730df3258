import { useState } from "react";
import type { Path } from "react-hook-form";
import { toast } from "sonner";
import { type Profile, type ProfileInput, profileInputSchema } from "../../../../shared/accounts.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import { profileMessages } from "../../../../shared/messages/profile.js";
import { AddressField, PhoneField } from "../../../components/account-fields.js";
import { CheckboxField } from "../../../components/checkbox-field.js";
import { bindFields, bindSubmit, pickFields } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { PendingButton } from "../../../components/pending-button.js";
import { PendingStatus } from "../../../components/pending-status.js";
import { TextField } from "../../../components/text-field.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { useLoadedValues } from "../../../lib/use-loaded-values.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { type ProfileMode, useSaveProfile } from "../api/save-profile.js";

const text = profileMessages.form;
const FIELDS = [
  "address",
  "city",
  "phone",
  "companyName",
  "companyTaxId",
] as const satisfies readonly Path<ProfileInput>[];
const company = pricingMessages.company;

/** The product's (docs/product.md) two ways to save: each has its checkbox and the button that checkbox enables. */
const MODES: readonly { mode: ProfileMode; checkbox: string; button: string; buttonClass: string }[] = [
  {
    mode: "create",
    checkbox: text.createMode,
    button: text.submit,
    buttonClass: "btn btn-primary sm:min-w-32",
  },
  {
    mode: "update",
    checkbox: text.updateMode,
    button: text.update,
    buttonClass: "btn btn-secondary sm:min-w-32",
  },
];

/** The form's fields as the saved profile fills them. */
function savedFields(profile: Profile): ProfileInput {
  return pickFields(profile, FIELDS);
}

/**
 * Address, city and phone, with the product's (docs/product.md) two checkboxes: "Create a new profile" enables Submit
 * (POST), "Update my profile" enables Update (PUT); ticking one unticks the other.
 *
 * Shown, and typed into, while the saved profile loads (`profile` undefined): when it arrives it
 * fills the fields the user has not changed and ticks the mode it calls for. The checkboxes wait
 * for it, since whether a profile exists decides the mode (and a tick made just as it arrived
 * would untick the mode it set).
 */
export function ProfileForm({ profile }: { profile: Profile | undefined }) {
  // undefined until the user ticks or saves: until then the saved profile decides.
  const [chosenMode, setChosenMode] = useState<ProfileMode | null>();
  const mode =
    chosenMode !== undefined ? chosenMode : profile ? (profile.exists ? "update" : "create") : null;
  const save = useSaveProfile();
  const form = useSchemaForm(profileInputSchema, {
    defaultValues: profile
      ? savedFields(profile)
      : { address: "", city: "", phone: "", companyName: "", companyTaxId: "" },
  });
  const { setError, reset } = form;
  const field = bindFields(form);
  useLoadedValues(form, profile ? savedFields(profile) : undefined);

  const toggle = (which: ProfileMode) => (checked: boolean) => setChosenMode(checked ? which : null);

  const submit = bindSubmit(form, (values) => {
    if (!mode) return;
    save.mutate(
      { mode, values },
      {
        onSuccess: (saved) => {
          toast.success(mode === "create" ? profileMessages.created : profileMessages.updated);
          reset(savedFields(saved));
          // The profile exists now: a second Submit would be refused, Update is what comes next.
          setChosenMode("update");
        },
        onError: (error) => {
          toast.error(problemMessage(error));
          showServerError(error, FIELDS, setError);
        },
      },
    );
  });

  const pendingMode = save.isPending ? save.variables?.mode : undefined;
  return (
    <FormCard
      title={text.formTitle}
      lead={text.formLead}
      roomy
      {...submit}
      actions={
        <div className="flex flex-col gap-3 sm:flex-row">
          {MODES.map((choice) => (
            <PendingButton
              key={choice.mode}
              // Only the enabled button submits, so Enter in a field presses it.
              type={mode === choice.mode ? "submit" : "button"}
              className={choice.buttonClass}
              pending={pendingMode === choice.mode}
              disabled={mode !== choice.mode || save.isPending}
            >
              {choice.button}
            </PendingButton>
          ))}
          <PendingStatus pending={save.isPending} />
        </div>
      }
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:gap-8">
        {MODES.map((choice) => (
          <CheckboxField
            key={choice.mode}
            label={choice.checkbox}
            checked={mode === choice.mode}
            disabled={!profile}
            onChange={toggle(choice.mode)}
          />
        ))}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <AddressField label={text.address} {...field("address")} />
        </div>
        <TextField label={text.city} autoComplete="address-level2" {...field("city")} />
        <PhoneField label={text.phone} {...field("phone")} />
        <TextField label={company.name} autoComplete="organization" {...field("companyName")} />
        <TextField label={company.taxId} {...field("companyTaxId")} />
      </div>
    </FormCard>
  );
}
