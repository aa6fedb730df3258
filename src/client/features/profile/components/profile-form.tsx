import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { toast } from "sonner";
import { type Profile, type ProfileInput, profileInputSchema } from "../../../../shared/accounts.js";
import { profileMessages } from "../../../../shared/messages/profile.js";
import { FormAlert } from "../../../components/form-alert.js";
import { PendingButton } from "../../../components/pending-button.js";
import { PendingStatus } from "../../../components/pending-status.js";
import { TextField } from "../../../components/text-field.js";
import { problemMessage, showServerError } from "../../../lib/form-errors.js";
import { useLoadedValues } from "../../../lib/use-loaded-values.js";
import { type ProfileMode, type ProfileValues, useSaveProfile } from "../api/save-profile.js";

const text = profileMessages.form;
const FIELDS: readonly Path<ProfileInput>[] = ["address", "city", "phone"];

function ModeCheckbox({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <input
        id={id}
        type="checkbox"
        className="checkbox checkbox-primary"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id} className="cursor-pointer">
        {label}
      </label>
    </div>
  );
}

/** The form's fields as the saved profile fills them. */
function savedFields(profile: Profile): ProfileInput {
  return { address: profile.address, city: profile.city, phone: profile.phone };
}

/**
 * Address, city and phone, with the spec's two checkboxes: "Create a new profile" enables Submit
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
  const form = useForm<ProfileInput, unknown, ProfileValues>({
    resolver: zodResolver(profileInputSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: profile ? savedFields(profile) : { address: "", city: "", phone: "" },
  });
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = form;
  useLoadedValues(form, profile ? savedFields(profile) : undefined);

  const toggle = (which: ProfileMode) => (checked: boolean) => setChosenMode(checked ? which : null);

  const onSubmit = handleSubmit((values) => {
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
    <section aria-labelledby="profile-form-title" className="card border border-base-content/10 bg-base-200">
      <form onSubmit={onSubmit} noValidate className="card-body gap-6">
        <div>
          <h2 id="profile-form-title" className="card-title text-xl">
            {text.formTitle}
          </h2>
          <p className="mt-1 text-base-content/80">{text.formLead}</p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:gap-8">
          <ModeCheckbox
            label={text.createMode}
            checked={mode === "create"}
            disabled={!profile}
            onChange={toggle("create")}
          />
          <ModeCheckbox
            label={text.updateMode}
            checked={mode === "update"}
            disabled={!profile}
            onChange={toggle("update")}
          />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <TextField
              label={text.address}
              autoComplete="street-address"
              error={errors.address?.message}
              {...register("address")}
            />
          </div>
          <TextField
            label={text.city}
            autoComplete="address-level2"
            error={errors.city?.message}
            {...register("city")}
          />
          <TextField
            label={text.phone}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            error={errors.phone?.message}
            {...register("phone")}
          />
        </div>
        {errors.root?.server ? <FormAlert>{errors.root.server.message}</FormAlert> : null}
        <div className="flex flex-col gap-3 sm:flex-row">
          <PendingButton
            // Only the enabled button submits, so Enter in a field presses it.
            type={mode === "create" ? "submit" : "button"}
            className="btn btn-primary sm:min-w-32"
            pending={pendingMode === "create"}
            disabled={mode !== "create" || save.isPending}
          >
            {text.submit}
          </PendingButton>
          <PendingButton
            type={mode === "update" ? "submit" : "button"}
            className="btn btn-secondary sm:min-w-32"
            pending={pendingMode === "update"}
            disabled={mode !== "update" || save.isPending}
          >
            {text.update}
          </PendingButton>
          <PendingStatus pending={save.isPending} />
        </div>
      </form>
    </section>
  );
}
