import { useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import type { DiscountCode } from "../../../../shared/discounts.js";
import { orderNumber } from "../../../../shared/format.js";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { formatCents } from "../../../../shared/pricing.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { AdminPage } from "../../../components/admin-page.js";
import { CardSection } from "../../../components/card-section.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { DetailList } from "../../../components/detail-list.js";
import { LoadingState } from "../../../components/loading-state.js";
import { PagedTable } from "../../../components/paged-table.js";
import { Spinner } from "../../../components/spinner.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatUtc } from "../../../lib/format.js";
import { activityOf, paths } from "../../../lib/paths.js";
import { useDiscountCode, useEndDiscountCode } from "../api/codes.js";
import { appliesToOf, offOf, stateBadge, validOf } from "../components/code-summary.js";

const t = discountMessages;
const d = t.detail;

function EndButton({ code }: { code: DiscountCode }) {
  const [open, setOpen] = useState(false);
  const end = useEndDiscountCode();
  return (
    <>
      <button type="button" className="btn btn-error btn-outline btn-sm" onClick={() => setOpen(true)}>
        {d.end}
      </button>
      <ConfirmDialog
        open={open}
        title={d.endTitle(code.code)}
        text={d.endText}
        confirmLabel={d.endConfirm}
        cancelLabel={d.cancel}
        pending={end.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          end.mutate(code.id, {
            onSuccess: () => {
              toast.success(d.ended(code.code));
              setOpen(false);
            },
            onError: (error) => toast.error(problemMessage(error)),
          })
        }
      />
    </>
  );
}

function Settings({ code }: { code: DiscountCode }) {
  const rows: [string, string][] = [
    [d.off, offOf(code)],
    [d.appliesTo, appliesToOf(code)],
    [d.minQuantity, String(code.minQuantity)],
    [d.valid, validOf(code)],
    [d.uses, t.usesOf(code.uses, code.maxUses)],
    [d.perCustomer, t.perCustomer(code.maxUsesPerCustomer)],
    [d.createdBy, `${code.createdBy ?? d.removedAdmin}, ${formatUtc(code.createdAt)}`],
  ];
  return (
    <CardSection
      id="discount-code-settings"
      title={d.settings}
      actions={code.state === "ended" ? null : <EndButton code={code} />}
    >
      <p className="flex flex-wrap items-center gap-3">
        <span className={stateBadge(code.state)}>{t.states[code.state]}</span>
        {code.endedAt ? <span className="text-sm">{d.endedAt(formatUtc(code.endedAt))}</span> : null}
      </p>
      <DetailList
        rows={rows}
        className="grid gap-x-6 gap-y-2 sm:grid-cols-[12rem_1fr]"
        labelClassName="font-medium text-base-content/80"
        valueClassName="break-words"
      />
      <Link className="link self-start" to={activityOf("discount_code", code.id)}>
        {d.activity}
      </Link>
    </CardSection>
  );
}

function CodePanel({ id }: { id: string }) {
  const detail = useDiscountCode(id);
  if (!detail.isSuccess) return <LoadingState query={detail} failure={AdminLoadError} />;
  const first = detail.data.pages[0];
  if (!first) return <Spinner />;
  const { total } = first;
  return (
    <div className="flex flex-col gap-8">
      <h2 className="font-mono text-2xl font-bold">{first.code.code}</h2>
      <Settings code={first.code} />
      <CardSection
        id="discount-code-uses"
        title={d.usesTitle}
        actions={
          <p className="text-sm text-base-content/80">
            {total.exact ? d.usesCount(total.count) : d.usesCountMore(total.count)}
          </p>
        }
      >
        <PagedTable
          pages={detail}
          caption={d.usesCaption}
          captionId="discount-code-uses-caption"
          columns={[d.order, d.customer, d.when, d.discount, d.status]}
          empty={d.noUses}
          more={d.moreUses}
        >
          {(use) => (
            <tr key={use.orderId}>
              <td className="font-mono">
                <Link
                  className="link"
                  to={`${paths.dashboard.manageOrders}?${new URLSearchParams({ search: orderNumber(use.orderId) })}`}
                >
                  {orderNumber(use.orderId)}
                </Link>
              </td>
              <td className="break-all">{use.email}</td>
              <td className="whitespace-nowrap">{formatUtc(use.at)}</td>
              <td className="tabular-nums">{formatCents(use.discountCents)}</td>
              <td>{orderMessages.status[use.status]}</td>
            </tr>
          )}
        </PagedTable>
      </CardSection>
    </div>
  );
}

/** /dashboard/discountCodes/:id (admin): a code, its uses, and its End button. */
export function DiscountCodePage() {
  const { id = "" } = useParams();
  return (
    <AdminPage
      title={t.heading}
      lead={d.lead}
      above={
        <Link className="link mb-6 inline-block" to={paths.dashboard.discountCodes}>
          {d.back}
        </Link>
      }
    >
      <CodePanel id={id} />
    </AdminPage>
  );
}
