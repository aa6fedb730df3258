import type { Profile } from "../../../../shared/accounts.js";
import { commonMessages } from "../../../../shared/messages/common.js";
import { profileMessages } from "../../../../shared/messages/profile.js";
import { CardSection } from "../../../components/card-section.js";

const text = profileMessages.form;

/**
 * The card with what the shop knows: name and email from the account, then the saved profile.
 * While the profile loads (`profile` undefined) it shows the account's name and email and holds
 * the other rows' places, so the form below does not move when the profile arrives.
 */
export function ProfileDetails({
  profile,
  account,
}: {
  profile: Profile | undefined;
  account: { name: string; email: string };
}) {
  const rows = [
    { label: text.name, value: profile?.name ?? account.name },
    { label: text.email, value: profile?.email ?? account.email },
    { label: text.address, value: profile?.address },
    { label: text.city, value: profile?.city },
    { label: text.phone, value: profile?.phone },
  ];
  return (
    <CardSection
      id="profile-details-title"
      title={text.detailsTitle}
      spacing="roomy"
      busy={!profile}
      actions={
        profile ? (
          <span className={`badge badge-soft ${profile.exists ? "badge-success" : "badge-warning"}`}>
            {profile.exists ? text.saved : text.notSaved}
          </span>
        ) : (
          <span role="status" className="badge badge-soft gap-2">
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            {commonMessages.loading}
          </span>
        )
      }
    >
      <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2">
        {rows.map((row) => (
          <div key={row.label} className="min-w-0">
            <dt className="text-sm text-base-content/75">{row.label}</dt>
            <dd className="mt-1 break-words font-medium">
              {row.value === undefined ? (
                <span className="skeleton inline-block h-5 w-40 max-w-full align-middle" aria-hidden="true" />
              ) : row.value ? (
                row.value
              ) : (
                <span className="italic text-base-content/75">{text.notSet}</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </CardSection>
  );
}
