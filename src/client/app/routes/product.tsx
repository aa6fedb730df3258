import type { Product } from "../../../shared/catalog.js";
import { MIN_ORDER_QUANTITY } from "../../../shared/constants.js";
import { VerifyEmailNotice } from "../../components/verify-email-notice.js";
import { ProductPage } from "../../features/catalog/pages/product-page.js";
import { BookingForm } from "../../features/orders/components/booking-form.js";
import { useProfile } from "../../features/profile/api/get-profile.js";
import { StockNoticeOffer } from "../../features/stock-notices/components/stock-notice-offer.js";
import { type SessionUser, useSession } from "../../lib/auth.js";

/** The orders feature's booking form, its delivery fields filled from the profile feature's data. */
function Booking({ product, user }: { product: Product; user: SessionUser }) {
  const profile = useProfile();
  return <BookingForm product={product} user={user} profile={profile.data} />;
}

/**
 * /tool/:id: the catalog's product page with the orders feature's booking form (or, below the
 * booking minimum, the offer to be mailed when it is back), or, for a customer whose email is not
 * verified yet, what to do first (the shop books nothing for them).
 */
export function ProductRoute() {
  const { user } = useSession();
  return (
    <ProductPage
      renderAction={(product) =>
        !user ? null : user.emailVerified ? (
          <>
            {product.quantity < MIN_ORDER_QUANTITY ? (
              // Cannot be booked: the stock-notices feature's offer to mail the customer when it is back.
              <div className="mb-8">
                <StockNoticeOffer productId={product.id} />
              </div>
            ) : null}
            <Booking key={product.id} product={product} user={user} />
          </>
        ) : (
          <VerifyEmailNotice email={user.email} />
        )
      }
    />
  );
}
