import { messages } from "../../../../shared/messages.js";
import { LoadError } from "../../../components/load-error.js";
import { PageTitle } from "../../../components/page-title.js";
import { Spinner } from "../../../components/spinner.js";
import { useProfile } from "../api/get-profile.js";
import { ProfileDetails } from "../components/profile-details.js";
import { ProfileForm } from "../components/profile-form.js";

const text = messages.dashboard;

/** /dashboard/myProfile, inside the dashboard layout: the profile card, then the form to save it. */
export function ProfilePage() {
  const profile = useProfile();
  return (
    <div className="max-w-3xl">
      <header className="mb-8">
        <PageTitle title={text.myProfile} />
        <h1 className="text-3xl font-extrabold tracking-tight">{text.myProfile}</h1>
        <p className="mt-2 text-base-content/80">{text.myProfileLead}</p>
      </header>
      {profile.isPending ? (
        <Spinner />
      ) : profile.isError ? (
        <LoadError onRetry={() => void profile.refetch()} />
      ) : (
        <div className="flex flex-col gap-8">
          <ProfileDetails profile={profile.data} />
          <ProfileForm profile={profile.data} />
        </div>
      )}
    </div>
  );
}
