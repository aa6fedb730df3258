import { useEffect, useState } from "react";
import { mailPreferenceMessages } from "../../../../shared/messages/mail-preferences.js";
import { CheckboxField } from "../../../components/checkbox-field.js";
import { FormCard } from "../../../components/form-card.js";
import { LoadError } from "../../../components/load-error.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useMailPreferences, useSaveMailPreferences } from "../api/mail-preferences.js";

const text = mailPreferenceMessages.card;

/**
 * Profile's Mails (issue 34, item 5): one switch for the optional mails (payment reminders and
 * back-in-stock mails), saved with Save; the card says which mails always go. The saved state is
 * said in a status line, so a screen reader hears the save.
 */
export function MailPreferencesCard({ userId }: { userId: string }) {
  const saved = useMailPreferences(userId);
  const save = useSaveMailPreferences(userId);
  const [reminders, setReminders] = useState(true);
  const [justSaved, setJustSaved] = useState(false);
  const savedValue = saved.data?.reminderMails;
  useEffect(() => {
    if (savedValue !== undefined) setReminders(savedValue);
  }, [savedValue]);

  if (saved.isError) return <LoadError error={saved.error} onRetry={() => void saved.refetch()} />;
  return (
    <FormCard
      title={text.heading}
      lead={text.lead}
      onSubmit={(event) => {
        event.preventDefault();
        setJustSaved(false);
        save.mutate({ reminderMails: reminders }, { onSuccess: () => setJustSaved(true) });
      }}
      serverError={save.isError ? { message: problemMessage(save.error) } : undefined}
      actions={
        <div className="card-actions items-center gap-4">
          <SubmitButton pending={save.isPending} disabled={saved.isPending} className="w-auto">
            {text.save}
          </SubmitButton>
          <p role="status" className="text-sm text-base-content/80">
            {justSaved ? `${text.saved} ${savedValue ? text.on : text.off}` : ""}
          </p>
        </div>
      }
    >
      <CheckboxField
        label={text.reminders}
        checked={reminders}
        disabled={saved.isPending}
        onChange={(checked) => {
          setReminders(checked);
          setJustSaved(false);
        }}
      />
    </FormCard>
  );
}
