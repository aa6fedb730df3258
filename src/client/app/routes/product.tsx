import type { Product } from "../../../shared/catalog.js";
import { VerifyEmailNotice } from "../../components/verify-email-notice.js";
import { ProductPage } from "../../features/catalog/pages/product-page.js";
import { BookingForm } from "../../features/orders/components/booking-form.js";
import { useProfile } from "../../features/profile/api/get-profile.js";
import { type SessionUser, useSession } from "../../lib/auth.js";

/** The orders feature's booking form, its delivery fields filled from the profile feature's data. */
function Booking({ product, user }: { product: Product; user: SessionUser }) {
  const profile = useProfile();
  return <BookingForm product={product} user={user} profile={profile.data} />;
}

/**
 * /tool/:id: the catalog's product page with the orders feature's booking form, or, for a customer
 * whose email is not verified yet, what to do first (the shop books nothing for them).
 */
export function ProductRoute() {
  const { user } = useSession();
  return (
    <ProductPage
      renderAction={(product) =>
        !user ? null : user.emailVerified ? (
          <Booking key={product.id} product={product} user={user} />
        ) : (
          <VerifyEmailNotice email={user.email} />
        )
      }
    />
  );
}
