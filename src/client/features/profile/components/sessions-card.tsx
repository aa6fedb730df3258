import { toast } from "sonner";
import { sessionMessages as t } from "../../../../shared/messages/sessions.js";
import type { SignedInSession } from "../../../../shared/sessions.js";
import { CardSection } from "../../../components/card-section.js";
import { DataTable } from "../../../components/data-table.js";
import { LoadingState } from "../../../components/loading-state.js";
import { PendingButton } from "../../../components/pending-button.js";
import { RowActionButton } from "../../../components/row-action-button.js";
import { TableRegion } from "../../../components/table-region.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatUtc } from "../../../lib/format.js";
import { useEndOtherSessions, useEndSession, useSessions } from "../api/sessions.js";

function EndButton({ userId, session }: { userId: string; session: SignedInSession }) {
  const end = useEndSession(userId);
  const browser = session.browser ?? t.unknownBrowser;
  return (
    <RowActionButton
      label={t.end}
      name={t.endNamed(browser, session.address ?? t.unknownAddress)}
      pending={end.isPending}
      run={() => end.mutateAsync(session.id)}
      done={t.ended}
    />
  );
}

/** The profile's list of signed-in sessions: end any other one, or all others at once. */
export function SessionsCard({ userId }: { userId: string }) {
  const sessions = useSessions(userId);
  const endOthers = useEndOtherSessions(userId);
  return (
    <CardSection
      id="sessions-heading"
      title={t.heading}
      actions={
        <PendingButton
          className="btn btn-sm btn-error btn-outline"
          pending={endOthers.isPending}
          spinner="xs"
          onClick={() =>
            endOthers.mutate(undefined, {
              onSuccess: ({ ended }) => toast.success(ended === 0 ? t.noOthers : t.endedOthers(ended)),
              onError: (error) => toast.error(problemMessage(error)),
            })
          }
        >
          {t.endOthers}
        </PendingButton>
      }
    >
      <p className="text-base-content/80">{t.lead}</p>
      {sessions.isSuccess ? (
        <>
          <TableRegion labelledBy="sessions-caption">
            <DataTable
              caption={t.caption}
              captionId="sessions-caption"
              hideCaption
              columns={[t.browser, t.address, t.lastSeen, t.signedIn, { label: t.end, hidden: true }]}
              rows={sessions.data.items}
            >
              {(session) => (
                <tr key={session.id}>
                  <td>
                    {session.browser ?? t.unknownBrowser}
                    {session.current ? (
                      <span className="badge badge-primary badge-soft ml-2">{t.thisBrowser}</span>
                    ) : null}
                  </td>
                  <td className="break-all">{session.address ?? t.unknownAddress}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatUtc(session.lastSeenAt)}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatUtc(session.signedInAt)}</td>
                  <td>{session.current ? null : <EndButton userId={userId} session={session} />}</td>
                </tr>
              )}
            </DataTable>
          </TableRegion>
          {sessions.data.total > sessions.data.items.length ? (
            <p className="text-sm text-base-content/75">
              {t.more(sessions.data.total - sessions.data.items.length)}
            </p>
          ) : null}
        </>
      ) : (
        <LoadingState query={sessions} />
      )}
    </CardSection>
  );
}
