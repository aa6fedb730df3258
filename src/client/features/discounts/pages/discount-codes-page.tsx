import { Link } from "react-router";
import { discountMessages } from "../../../../shared/messages/discounts.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { AdminPage } from "../../../components/admin-page.js";
import { CardSection } from "../../../components/card-section.js";
import { LoadingState } from "../../../components/loading-state.js";
import { PagedTable } from "../../../components/paged-table.js";
import { paths } from "../../../lib/paths.js";
import { useDiscountCodes } from "../api/codes.js";
import { CodeForm } from "../components/code-form.js";
import { appliesToOf, offOf, stateBadge, validOf } from "../components/code-summary.js";

const t = discountMessages;

function CodeList() {
  const codes = useDiscountCodes();
  if (!codes.isSuccess) return <LoadingState query={codes} failure={AdminLoadError} />;
  const total = codes.data.pages[0]?.total;
  return (
    <CardSection
      id="discount-codes"
      title={t.heading}
      actions={
        total ? (
          <p className="text-sm text-base-content/80">
            {total.exact ? t.list.count(total.count) : t.list.countMore(total.count)}
          </p>
        ) : null
      }
    >
      <PagedTable
        pages={codes}
        caption={t.list.caption}
        captionId="discount-codes-caption"
        columns={[t.list.code, t.list.off, t.list.appliesTo, t.list.valid, t.list.uses, t.list.state]}
        empty={t.list.none}
        more={t.list.more}
      >
        {(code) => (
          <tr key={code.id}>
            <td>
              <Link
                className="link font-mono font-semibold"
                to={paths.dashboard.discountCode(code.id)}
                aria-label={t.list.open(code.code)}
              >
                {code.code}
              </Link>
            </td>
            <td className="tabular-nums">{offOf(code)}</td>
            <td className="max-w-xs break-words">
              {appliesToOf(code)}
              {code.minQuantity > 1 ? (
                <span className="block text-xs text-base-content/75">
                  {t.minQuantityOf(code.minQuantity)}
                </span>
              ) : null}
            </td>
            <td className="whitespace-nowrap text-sm">{validOf(code)}</td>
            <td className="tabular-nums">{t.usesOf(code.uses, code.maxUses)}</td>
            <td>
              <span className={stateBadge(code.state)}>{t.states[code.state]}</span>
            </td>
          </tr>
        )}
      </PagedTable>
    </CardSection>
  );
}

/** /dashboard/discountCodes (admin): the codes, newest first, and the form that makes one. */
export function DiscountCodesPage() {
  return (
    <AdminPage title={t.heading} lead={t.lead}>
      <div className="flex flex-col gap-8">
        <CodeForm />
        <CodeList />
      </div>
    </AdminPage>
  );
}
