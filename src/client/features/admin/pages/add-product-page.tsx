import { useState } from "react";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { AdminOnly } from "../../../components/admin-only.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { useSession } from "../../../lib/auth.js";
import { NewProductForm } from "../components/new-product-form.js";
import { ProductList } from "../components/product-list.js";

/** /dashboard/addProduct (admin): the form for a new product, then every product with Edit. */
export function AddProductPage() {
  const { user } = useSession();
  const [page, setPage] = useState(1);
  return (
    <>
      <DashboardHeading title={dashboardMessages.addProduct} lead={dashboardMessages.addProductLead} />
      {/* The product list is public, so no 403 tells a customer this page is not theirs: the role does. */}
      {user?.role === "admin" ? (
        <div className="flex flex-col gap-10">
          <NewProductForm onCreated={() => setPage(1)} />
          <ProductList page={page} onPage={setPage} />
        </div>
      ) : (
        <AdminOnly />
      )}
    </>
  );
}
