import { ProductPage } from "../../features/catalog/pages/product-page.js";
import { BookingForm } from "../../features/orders/components/booking-form.js";
import { useSession } from "../../lib/auth.js";

/** /tool/:id: the catalog's product page with the orders feature's booking form. */
export function ProductRoute() {
  const { user } = useSession();
  return (
    <ProductPage
      renderAction={(product) =>
        user ? <BookingForm key={product.id} product={product} user={user} /> : null
      }
    />
  );
}
