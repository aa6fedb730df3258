import { useState } from "react";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { AdminOnly } from "../../../components/admin-only.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { useSession } from "../../../lib/auth.js";
import { NewProductForm } from "../components/new-product-form.js";
import { ProductList } from "../components/product-list.js";

/**
 * /dashboard/addProduct (admin): the form for a new product, then the products on sale or the
 * archived ones, each with Edit, Archive or Restore, and Delete.
 */
export function AddProductPage() {
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const [archived, setArchived] = useState(false);
  return (
    <>
      <DashboardHeading title={dashboardMessages.addProduct} lead={dashboardMessages.addProductLead} />
      {/* The role decides what a customer sees here (the admin list would answer them 403 anyway). */}
      {user?.role === "admin" ? (
        <div className="flex flex-col gap-10">
          <NewProductForm
            onCreated={() => {
              setArchived(false);
              setPage(1);
            }}
          />
          <ProductList
            page={page}
            onPage={setPage}
            archived={archived}
            onArchived={(view) => {
              setArchived(view);
              setPage(1);
            }}
          />
        </div>
      ) : (
        <AdminOnly />
      )}
    </>
  );
}
