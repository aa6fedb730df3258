import { useSearchParams } from "react-router";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { LoadError } from "../../../components/load-error.js";
import { PageTitle } from "../../../components/page-title.js";
import { useSession } from "../../../lib/auth.js";
import { useProfile } from "../api/get-profile.js";
import { ChangeEmailCard } from "../components/change-email-card.js";
import { ChangePasswordCard } from "../components/change-password-card.js";
import { DeleteAccountCard } from "../components/delete-account-card.js";
import { MailPreferencesCard } from "../components/mail-preferences-card.js";
import { MyDataCard } from "../components/my-data-card.js";
import { ProfileDetails } from "../components/profile-details.js";
import { ProfileForm } from "../components/profile-form.js";
import { SecondFactorCard } from "../components/second-factor-card.js";
import { SessionsCard } from "../components/sessions-card.js";

const text = dashboardMessages;

/**
 * /dashboard/myProfile, inside the dashboard layout: the profile card, then the form to save it,
 * then Change password, the second factors and the account's signed-in sessions (Gearhouse's
 * additions, after the spec's screen).
 * The form is there while the saved profile loads, so what the user types then is kept.
 */
export function ProfilePage() {
  const { user } = useSession();
  const profile = useProfile();
  // An admin sent here by a refused admin page (the shop requires a second factor of admins).
  const [params] = useSearchParams();
  return (
    <div className="max-w-3xl">
      <header className="mb-8">
        <PageTitle title={text.myProfile} />
        <h1 className="text-3xl font-extrabold tracking-tight">{text.myProfile}</h1>
        <p className="mt-2 text-base-content/80">{text.myProfileLead}</p>
      </header>
      <div className="flex flex-col gap-8">
        {profile.isError ? (
          <LoadError error={profile.error} onRetry={() => void profile.refetch()} />
        ) : (
          <ProfileDetails profile={profile.data} account={user ?? { name: "", email: "" }} />
        )}
        <ProfileForm profile={profile.data} />
        {user ? <ChangePasswordCard userId={user.id} /> : null}
        {user ? <ChangeEmailCard email={user.email} /> : null}
        {user ? (
          <SecondFactorCard userId={user.id} required={params.get("secondFactor") === "required"} />
        ) : null}
        {user ? <SessionsCard userId={user.id} /> : null}
        {user ? <MyDataCard /> : null}
        {user ? <MailPreferencesCard userId={user.id} /> : null}
        {user && user.role !== "admin" ? <DeleteAccountCard userId={user.id} /> : null}
      </div>
    </div>
  );
}
